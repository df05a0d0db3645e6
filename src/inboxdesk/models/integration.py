"""The Integration resource (response of set primary) and its nested objects."""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field

from inboxdesk.models.base import ApiModel, Open
from inboxdesk.models.enums import PRIMARY_CHANNELS, Channel, IntegrationKind
from inboxdesk.models.filters import StepFilter

# Credential fields that are safe to show as they are; every other value is masked.
PUBLIC_CREDENTIALS: frozenset[str] = frozenset(
    {
        "user",
        "domain",
        "host",
        "port",
        "region",
        "from",
        "senderName",
        "projectName",
        "baseUrl",
        "redirectUrl",
        "ipPoolName",
        "apiKeyRequestHeader",
        "secretKeyRequestHeader",
        "idPath",
        "datePath",
        "title",
        "imageUrl",
        "state",
        "externalLink",
        "channelId",
        "phoneNumberIdentification",
        "senderId",
        "secure",
        "requireTls",
        "ignoreTls",
        "hmac",
        "authenticateByToken",
        "AppBaseUrl",
    }
)


class Credentials(ApiModel):
    api_key: str | None = Field(None, alias="apiKey")
    user: str | None = None
    secret_key: str | None = Field(None, alias="secretKey")
    domain: str | None = None
    password: str | None = None
    host: str | None = None
    port: str | None = None
    secure: bool | None = None
    region: str | None = None
    account_sid: str | None = Field(None, alias="accountSid")
    message_profile_id: str | None = Field(None, alias="messageProfileId")
    token: str | None = None
    from_: str | None = Field(None, alias="from")
    sender_name: str | None = Field(None, alias="senderName")
    project_name: str | None = Field(None, alias="projectName")
    application_id: str | None = Field(None, alias="applicationId")
    client_id: str | None = Field(None, alias="clientId")
    require_tls: bool | None = Field(None, alias="requireTls")
    ignore_tls: bool | None = Field(None, alias="ignoreTls")
    tls_options: dict[str, Any] | None = Field(None, alias="tlsOptions")
    base_url: str | None = Field(None, alias="baseUrl")
    webhook_url: str | None = Field(None, alias="webhookUrl")
    redirect_url: str | None = Field(None, alias="redirectUrl")
    hmac: bool | None = None
    service_account: str | None = Field(None, alias="serviceAccount")
    ip_pool_name: str | None = Field(None, alias="ipPoolName")
    api_key_request_header: str | None = Field(None, alias="apiKeyRequestHeader")
    secret_key_request_header: str | None = Field(None, alias="secretKeyRequestHeader")
    id_path: str | None = Field(None, alias="idPath")
    date_path: str | None = Field(None, alias="datePath")
    api_token: str | None = Field(None, alias="apiToken")
    authenticate_by_token: bool | None = Field(None, alias="authenticateByToken")
    authentication_token_key: str | None = Field(None, alias="authenticationTokenKey")
    instance_id: str | None = Field(None, alias="instanceId")
    alert_uid: str | None = Field(None, alias="alertUid")
    title: str | None = None
    image_url: str | None = Field(None, alias="imageUrl")
    state: str | None = None
    external_link: str | None = Field(None, alias="externalLink")
    channel_id: str | None = Field(None, alias="channelId")
    phone_number_identification: str | None = Field(None, alias="phoneNumberIdentification")
    access_key: str | None = Field(None, alias="accessKey")
    app_sid: str | None = Field(None, alias="appSid")
    sender_id: str | None = Field(None, alias="senderId")
    app_base_url: str | None = Field(None, alias="AppBaseUrl")

    def __repr__(self) -> str:
        return f"Credentials({', '.join(f'{k}=…' for k in self.to_wire())})"

    __str__ = __repr__

    def masked(self) -> dict[str, Any]:
        """Every set field for display: public values as they came, every other masked."""
        return {
            key: value
            if key in PUBLIC_CREDENTIALS and not isinstance(value, dict | list)
            else _mask_value(value)
            for key, value in self.to_wire().items()
            if value is not None
        }


def mask_secret(value: str) -> str:
    """Show at most the last four characters of a long secret, nothing of a short one."""
    if len(value) <= 8:
        return "••••"
    return "••••" + value[-4:]


# Names of settings that hold secrets (apiKey, signingKey, authToken, password, ...).
_SECRET_NAME = re.compile(
    r"key|secret|token|passw|pwd|signing|credential|private|cert|auth|salt",
    re.IGNORECASE,
)
# Values that are secrets whatever their name: provider key and token prefixes, JWTs.
_SECRET_VALUE = re.compile(
    r"^(whsec_|sk_|rk_|pk_live_|SG\.|xox[abposr]-|gh[pousr]_|github_pat_|AKIA|ASIA|"
    r"AC[0-9a-f]{32}|eyJ[\w-]+\.|key-[0-9a-f]{16})"
)
# Names that match _SECRET_NAME but only say whether a secret is used, or where.
_PUBLIC_NAMES = frozenset(PUBLIC_CREDENTIALS | {"inboundWebhookEnabled"})


def is_secret(name: str, value: object) -> bool:
    """True when a setting looks secret: by its name, or by what its value looks like."""
    if isinstance(value, str) and _SECRET_VALUE.match(value.strip()):
        return True
    if name in _PUBLIC_NAMES or isinstance(value, bool) or value is None:
        return False
    return _SECRET_NAME.search(name) is not None


def _mask_value(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _mask_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_mask_value(v) for v in value]
    return mask_secret(str(value))


def mask_secrets(value: Any, name: str = "") -> Any:
    """A JSON value with every secret-looking setting masked and the rest as it came.

    The one masking rule for settings from the wire (credentials of older deployments,
    `configurations`, unknown fields): the command line and the app both show this.
    """
    if isinstance(value, dict):
        return {k: mask_secrets(v, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [mask_secrets(v, name) for v in value]
    return mask_secret(str(value)) if is_secret(name, value) else value


class Configurations(ApiModel):
    inbound_webhook_enabled: bool | None = Field(None, alias="inboundWebhookEnabled")
    inbound_webhook_signing_key: str | None = Field(None, alias="inboundWebhookSigningKey")

    def __repr__(self) -> str:
        return f"Configurations({mask_secrets(self.to_wire())!r})"

    __str__ = __repr__

    def masked(self) -> dict[str, Any]:
        """Every set value for display, secret-looking ones (signing keys, tokens) masked."""
        shown: dict[str, Any] = mask_secrets(self.to_wire())
        return shown


class Integration(ApiModel):
    id: str | None = Field(None, alias="_id")
    environment_id: str = Field(alias="_environmentId")
    organization_id: str = Field(alias="_organizationId")
    name: str
    identifier: str
    provider_id: str = Field(alias="providerId")
    # Unset on agent-kind integrations.
    channel: Open[Channel] | None = None
    kind: Open[IntegrationKind] | None = None
    # Production leaves credentials out for API-key callers; older deployments sent them.
    credentials: Credentials | None = None
    configurations: Configurations | None = None
    active: bool
    deleted: bool
    deleted_at: str | None = Field(None, alias="deletedAt")
    deleted_by: str | None = Field(None, alias="deletedBy")
    primary: bool
    conditions: list[StepFilter] | None = None

    @property
    def supports_primary(self) -> bool:
        """Only email and sms integrations can be primary."""
        return self.channel in PRIMARY_CHANNELS

    def masked(self) -> dict[str, Any]:
        """The wire form for display: credentials and secret-looking values masked."""
        shown: dict[str, Any] = mask_secrets(self.to_wire())
        if self.credentials is not None:
            shown["credentials"] = self.credentials.masked()
        if self.configurations is not None:
            shown["configurations"] = self.configurations.masked()
        return shown
