"""The Integration resource (response of set primary) and its nested objects."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from inboxdesk.models.base import ApiModel, Open
from inboxdesk.models.enums import PRIMARY_CHANNELS, Channel
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

    def masked(self) -> dict[str, str]:
        """Every set field with secret values masked, for display."""
        shown: dict[str, str] = {}
        for key, value in self.to_wire().items():
            if value is None:
                continue
            if key in PUBLIC_CREDENTIALS and not isinstance(value, dict):
                shown[key] = str(value)
            else:
                shown[key] = mask_secret(str(value))
        return shown


def mask_secret(value: str) -> str:
    """Show at most the last four characters of a long secret, nothing of a short one."""
    if len(value) <= 8:
        return "••••"
    return "••••" + value[-4:]


class Configurations(ApiModel):
    inbound_webhook_enabled: bool | None = Field(None, alias="inboundWebhookEnabled")
    inbound_webhook_signing_key: str | None = Field(None, alias="inboundWebhookSigningKey")


class Integration(ApiModel):
    id: str | None = Field(None, alias="_id")
    environment_id: str = Field(alias="_environmentId")
    organization_id: str = Field(alias="_organizationId")
    name: str
    identifier: str
    provider_id: str = Field(alias="providerId")
    channel: Open[Channel]
    credentials: Credentials
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
