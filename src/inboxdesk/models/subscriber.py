"""The Subscriber resource (nested in Message) and its channel settings."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from inboxdesk.models.base import ApiModel, Number


class ChannelCredentials(ApiModel):
    webhook_url: str | None = Field(None, alias="webhookUrl")
    channel: str | None = None
    device_tokens: list[str] | None = Field(None, alias="deviceTokens")
    alert_uid: str | None = Field(None, alias="alertUid")
    title: str | None = None
    image_url: str | None = Field(None, alias="imageUrl")
    state: str | None = None
    external_url: str | None = Field(None, alias="externalUrl")


class ChannelSettings(ApiModel):
    # One of 20 chat/push providers; the contract lists only two, so this stays a plain str.
    provider_id: str = Field(alias="providerId")
    integration_identifier: str | None = Field(None, alias="integrationIdentifier")
    credentials: ChannelCredentials
    integration_id: str = Field(alias="_integrationId")


class Subscriber(ApiModel):
    id: str | None = Field(None, alias="_id")
    first_name: str | None = Field(None, alias="firstName")
    last_name: str | None = Field(None, alias="lastName")
    email: str | None = None
    phone: str | None = None
    avatar: str | None = None
    locale: str | None = None
    channels: list[ChannelSettings] | None = None
    topics: list[str] | None = Field(None, deprecated="topics is deprecated by the service")
    is_online: bool | None = Field(None, alias="isOnline")
    last_online_at: str | None = Field(None, alias="lastOnlineAt")
    v: Number | None = Field(None, alias="__v")
    data: dict[str, Any] | None = None
    timezone: str | None = None
    subscriber_id: str = Field(alias="subscriberId")
    organization_id: str = Field(alias="_organizationId")
    environment_id: str = Field(alias="_environmentId")
    deleted: bool
    created_at: str = Field(alias="createdAt")
    updated_at: str = Field(alias="updatedAt")

    @property
    def display_name(self) -> str:
        """Full name, else email, else the subscriberId."""
        name = " ".join(p for p in (self.first_name, self.last_name) if p)
        return name or self.email or self.subscriber_id
