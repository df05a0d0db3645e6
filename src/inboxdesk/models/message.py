"""The Message resource (element of the mark-as response) and its content and CTA."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from inboxdesk.models.base import ApiModel, Open
from inboxdesk.models.enums import (
    ActionStatus,
    ButtonType,
    Channel,
    CtaType,
    EmailBlockType,
    MessageStatus,
    TextAlign,
)
from inboxdesk.models.subscriber import Subscriber
from inboxdesk.models.workflow import Workflow


class EmailBlockStyles(ApiModel):
    text_align: Open[TextAlign] = Field(alias="textAlign")


class EmailBlock(ApiModel):
    type: Open[EmailBlockType]
    content: str
    url: str | None = None
    styles: EmailBlockStyles | None = None


class MessageButton(ApiModel):
    type: Open[ButtonType]
    content: str
    result_content: str | None = Field(None, alias="resultContent")


class MessageActionResult(ApiModel):
    payload: dict[str, Any] | None = None
    type: Open[ButtonType] | None = None


class MessageAction(ApiModel):
    status: Open[ActionStatus] | None = None
    buttons: list[MessageButton] | None = None
    result: MessageActionResult | None = None


class MessageCTAData(ApiModel):
    url: str | None = None


class MessageCTA(ApiModel):
    type: Open[CtaType] | None = None
    data: MessageCTAData | None = None
    action: MessageAction | None = None


class MessageFields(ApiModel):
    """What a full Message and a feed item share; each adds its own subscriber and template."""

    id: str | None = Field(None, alias="_id")
    template_id: str | None = Field(None, alias="_templateId")
    environment_id: str = Field(alias="_environmentId")
    message_template_id: str | None = Field(None, alias="_messageTemplateId")
    organization_id: str = Field(alias="_organizationId")
    notification_id: str = Field(alias="_notificationId")
    subscriber_internal_id: str = Field(alias="_subscriberId")
    template_identifier: str | None = Field(None, alias="templateIdentifier")
    created_at: str = Field(alias="createdAt")
    delivered_at: list[str] | None = Field(None, alias="deliveredAt")
    last_seen_date: str | None = Field(None, alias="lastSeenDate")
    last_read_date: str | None = Field(None, alias="lastReadDate")
    content: list[EmailBlock] | str | None = None
    transaction_id: str = Field(alias="transactionId")
    subject: str | None = None
    channel: Open[Channel]
    read: bool
    seen: bool
    snoozed_until: str | None = Field(None, alias="snoozedUntil")
    email: str | None = None
    phone: str | None = None
    direct_webhook_url: str | None = Field(None, alias="directWebhookUrl")
    provider_id: str | None = Field(None, alias="providerId")
    device_tokens: list[str] | None = Field(None, alias="deviceTokens")
    title: str | None = None
    cta: MessageCTA
    feed_id: str | None = Field(None, alias="_feedId")
    status: Open[MessageStatus]
    error_id: str | None = Field(None, alias="errorId")
    error_text: str | None = Field(None, alias="errorText")
    payload: dict[str, Any] | None = None
    overrides: dict[str, Any] | None = None
    context_keys: list[str] | None = Field(None, alias="contextKeys")

    @property
    def preview(self) -> str:
        """The content as one line of plain text: the string, or the blocks' text joined."""
        if isinstance(self.content, str):
            text = self.content
        elif self.content:
            text = " · ".join(block.content for block in self.content)
        else:
            text = ""
        return " ".join(text.split())

    @property
    def workflow_name(self) -> str:
        """The workflow's name where the body carries it, else its identifier."""
        return self.template_identifier or ""

    @property
    def heading(self) -> str:
        """What names the message in a list: title, subject, or workflow name."""
        return self.title or self.subject or self.workflow_name


class Message(MessageFields):
    """A full Message: /v1/messages and mark-as, with the whole subscriber and workflow."""

    subscriber: Subscriber | None = None
    template: Workflow | None = None

    @property
    def workflow_name(self) -> str:
        if self.template is not None:
            return self.template.name
        return self.template_identifier or ""
