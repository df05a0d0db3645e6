"""The Integration resource (response of set primary) and its nested objects."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from inboxdesk.models.base import ApiModel, Open
from inboxdesk.models.enums import PRIMARY_CHANNELS, Channel, IntegrationKind
from inboxdesk.models.filters import StepFilter
from inboxdesk.models.secrets import PUBLIC_CREDENTIALS, mask_secrets, mask_value


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
            else mask_value(value)
            for key, value in self.to_wire().items()
            if value is not None
        }


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
    # Delivery order among the environment's active integrations of the channel: the
    # primary has the highest. Any JSON number reads.
    priority: int | float | None = None
    rules: Any = None

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
