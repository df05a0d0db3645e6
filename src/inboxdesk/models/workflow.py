"""The Workflow resource (a message's template) with its steps and triggers."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Discriminator, Field, Tag

from inboxdesk.models.base import ApiModel, Open
from inboxdesk.models.enums import (
    DelayScheduledType,
    DelayType,
    DigestTimedType,
    DigestType,
    MonthlyType,
    Ordinal,
    OrdinalValue,
    TimeUnit,
    TriggerType,
    WeekDay,
)
from inboxdesk.models.filters import StepFilter


class TimedConfig(ApiModel):
    at_time: str | None = Field(None, alias="atTime")
    week_days: list[Open[WeekDay]] | None = Field(None, alias="weekDays")
    month_days: list[str] | None = Field(None, alias="monthDays")
    ordinal: Open[Ordinal] | None = None
    ordinal_value: Open[OrdinalValue] | None = Field(None, alias="ordinalValue")
    monthly_type: Open[MonthlyType] | None = Field(None, alias="monthlyType")


class DigestRegularMetadata(ApiModel):
    type: DigestType
    amount: int | float | None = None
    unit: Open[TimeUnit] | None = None
    digest_key: str | None = Field(None, alias="digestKey")
    backoff: bool | None = None
    backoff_amount: int | float | None = Field(None, alias="backoffAmount")
    backoff_unit: Open[TimeUnit] | None = Field(None, alias="backoffUnit")
    update_mode: bool | None = Field(None, alias="updateMode")


class DigestTimedMetadata(ApiModel):
    type: DigestTimedType
    amount: int | float | None = None
    unit: Open[TimeUnit] | None = None
    digest_key: str | None = Field(None, alias="digestKey")
    timed: TimedConfig | None = None


class DelayRegularMetadata(ApiModel):
    type: DelayType
    amount: int | float | None = None
    unit: Open[TimeUnit] | None = None


class DelayScheduledMetadata(ApiModel):
    type: DelayScheduledType
    delay_path: str = Field(alias="delayPath")


_DIGEST_ONLY = ("digestKey", "backoff", "backoffAmount", "backoffUnit", "updateMode")


def _metadata_kind(value: Any) -> str:
    """Tell the four step metadata shapes apart; digest and delay share type "regular"."""
    get = (
        value.get
        if isinstance(value, dict)
        else lambda key, default=None: getattr(value, key, default)
    )
    kind = get("type")
    if kind == "timed":
        return "digest-timed"
    if kind == "scheduled":
        return "delay-scheduled"
    if kind == "backoff":
        return "digest-regular"
    if kind == "regular":
        fields = value if isinstance(value, dict) else value.to_wire()
        return "digest-regular" if any(f in fields for f in _DIGEST_ONLY) else "delay-regular"
    return "other"


def _any_of(schema: dict[str, Any]) -> None:
    # The open "other" member matches every metadata, so as a oneOf no real step
    # metadata could satisfy the schema (issue 9): it is an anyOf on the wire.
    schema["anyOf"] = schema.pop("oneOf")
    schema.pop("discriminator", None)


# A step kind a newer server adds stays readable as a plain dict.
StepMetadata = Annotated[
    Annotated[DigestTimedMetadata, Tag("digest-timed")]
    | Annotated[DelayScheduledMetadata, Tag("delay-scheduled")]
    | Annotated[DigestRegularMetadata, Tag("digest-regular")]
    | Annotated[DelayRegularMetadata, Tag("delay-regular")]
    | Annotated[dict[str, Any], Tag("other")],
    Discriminator(_metadata_kind),
    Field(json_schema_extra=_any_of),
]


class ReplyCallback(ApiModel):
    active: bool | None = None
    url: str | None = None


class NotificationStepVariant(ApiModel):
    id: str | None = Field(None, alias="_id")
    uuid: str | None = None
    name: str | None = None
    template_id: str | None = Field(None, alias="_templateId")
    active: bool | None = None
    should_stop_on_fail: bool | None = Field(None, alias="shouldStopOnFail")
    # The contract does not show MessageTemplate's fields: kept as an open object.
    template: dict[str, Any] | None = None
    filters: list[StepFilter] | None = None
    parent_id: str | None = Field(None, alias="_parentId")
    metadata: StepMetadata | None = None
    reply_callback: ReplyCallback | None = Field(None, alias="replyCallback")


class NotificationStep(NotificationStepVariant):
    variants: list[NotificationStepVariant] | None = None


class NotificationTriggerVariable(ApiModel):
    name: str


class NotificationTrigger(ApiModel):
    type: Open[TriggerType]
    identifier: str
    variables: list[NotificationTriggerVariable]
    subscriber_variables: list[NotificationTriggerVariable] | None = Field(
        None, alias="subscriberVariables"
    )


class NotificationGroup(ApiModel):
    id: str | None = Field(None, alias="_id")
    name: str
    environment_id: str = Field(alias="_environmentId")
    organization_id: str = Field(alias="_organizationId")
    parent_id: str | None = Field(None, alias="_parentId")


class PreferenceSettings(ApiModel):
    email: bool | None = None
    sms: bool | None = None
    in_app: bool | None = None
    chat: bool | None = None
    push: bool | None = None
    tool: bool | None = None


class Workflow(ApiModel):
    id: str | None = Field(None, alias="_id")
    name: str
    description: str
    active: bool
    draft: bool
    preference_settings: PreferenceSettings = Field(alias="preferenceSettings")
    critical: bool
    tags: list[str]
    steps: list[NotificationStep]
    organization_id: str = Field(alias="_organizationId")
    creator_id: str = Field(alias="_creatorId")
    environment_id: str = Field(alias="_environmentId")
    triggers: list[NotificationTrigger]
    notification_group_id: str = Field(alias="_notificationGroupId")
    parent_id: str | None = Field(None, alias="_parentId")
    deleted: bool
    deleted_at: str = Field(alias="deletedAt")
    deleted_by: str = Field(alias="deletedBy")
    notification_group: NotificationGroup | None = Field(None, alias="notificationGroup")
    data: dict[str, Any] | None = None
    workflow_integration_status: dict[str, Any] | None = Field(
        None, alias="workflowIntegrationStatus"
    )
