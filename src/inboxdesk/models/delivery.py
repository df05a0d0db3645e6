"""A notification's delivery: the activity feed's items, their jobs (one per workflow
step) and each job's execution details (what the worker did, oldest first).

Read loosely where production is loose: a job may lack `payload`, `providerId` or even
`step`; a trigger job may or may not be there; the subscriber or the workflow is absent
once deleted; a status or step type this version does not know stays the string sent.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, model_validator

from inboxdesk.models.base import ApiModel, Open
from inboxdesk.models.enums import DetailSource, DetailStatus, JobStatus, Severity, StepType

# The step types that deliver to the subscriber (a channel), as opposed to workflow actions.
CHANNEL_STEPS: frozenset[str] = frozenset({"in_app", "email", "sms", "chat", "push", "tool"})


def _text_or_json(value: Any) -> Any:
    """`raw` is a string on the wire; an older or odd store may hold the object itself,
    which is kept as its JSON text rather than refused."""
    if value is None or isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


RawText = Annotated[str | None, BeforeValidator(_text_or_json)]


class LooseModel(ApiModel):
    """A part of a job read field by field as optional, whatever the document says: a
    field sent as `null` reads as one left out (its default)."""

    @model_validator(mode="before")
    @classmethod
    def _nulls_as_missing(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: v for k, v in value.items() if v is not None}
        return value


class ExecutionDetail(LooseModel):
    """One thing the worker did for a job, with the provider's answer in `raw`."""

    id: str = Field("", alias="_id")
    created_at: str | None = Field(None, alias="createdAt")
    status: Open[DetailStatus] = ""
    detail: str = ""
    is_retry: bool = Field(False, alias="isRetry")
    is_test: bool = Field(False, alias="isTest")
    provider_id: str | None = Field(None, alias="providerId")
    raw: RawText = None
    source: Open[DetailSource] | None = None


class ActivityStep(LooseModel):
    """The workflow step a job ran; `name` and `template` are optional in production."""

    id: str | None = Field(None, alias="_id")
    active: bool | None = None
    template_id: str | None = Field(None, alias="_templateId")
    name: str | None = None
    filters: list[Any] = Field(default_factory=list)
    template: dict[str, Any] | None = None


class ActivityJob(LooseModel):
    """One step of one notification for one subscriber, and what became of it."""

    id: str = Field("", alias="_id")
    type: Open[StepType] = ""
    status: Open[JobStatus] = ""
    provider_id: str | None = Field(None, alias="providerId")
    step: ActivityStep | None = None
    digest: dict[str, Any] | None = None
    overrides: dict[str, Any] | None = None
    payload: dict[str, Any] | None = None
    updated_at: str | None = Field(None, alias="updatedAt")
    execution_details: list[ExecutionDetail] = Field(default_factory=list, alias="executionDetails")

    @property
    def is_channel(self) -> bool:
        """Whether this job delivers to the subscriber (in-app, email, sms, chat, push, tool)."""
        return str(self.type) in CHANNEL_STEPS

    @property
    def name(self) -> str:
        """The step's name where the body has one, else its type."""
        if self.step is not None and self.step.name:
            return self.step.name
        return str(self.type)


class ActivitySubscriber(ApiModel):
    id: str | None = Field(None, alias="_id")
    subscriber_id: str = Field("", alias="subscriberId")
    email: str | None = None
    first_name: str | None = Field(None, alias="firstName")
    last_name: str | None = Field(None, alias="lastName")
    phone: str | None = None


class ActivityTemplate(ApiModel):
    id: str | None = Field(None, alias="_id")
    name: str = ""
    triggers: list[dict[str, Any]] = Field(default_factory=list)
    origin: str | None = None

    @property
    def identifier(self) -> str:
        """The trigger identifier (what a workflow is called in code), if any."""
        for trigger in self.triggers:
            found = trigger.get("identifier") if isinstance(trigger, dict) else None
            if isinstance(found, str) and found:
                return found
        return ""


class ActivityNotification(ApiModel):
    """One trigger of a workflow for one subscriber, across all its channels: the
    activity feed's item and `GET /v1/notifications/{id}`'s answer alike."""

    id: str = Field(alias="_id")
    environment_id: str | None = Field(None, alias="_environmentId")
    organization_id: str | None = Field(None, alias="_organizationId")
    subscriber_internal_id: str | None = Field(None, alias="_subscriberId")
    transaction_id: str = Field("", alias="transactionId")
    created_at: str | None = Field(None, alias="createdAt")
    updated_at: str | None = Field(None, alias="updatedAt")
    channels: list[Open[StepType]] = Field(default_factory=list)
    severity: Open[Severity] | None = None
    template_id: str | None = Field(None, alias="_templateId")
    digested_notification_id: str | None = Field(None, alias="_digestedNotificationId")
    # Absent once the subscriber or the workflow was deleted.
    subscriber: ActivitySubscriber | None = None
    template: ActivityTemplate | None = None
    jobs: list[ActivityJob] = Field(default_factory=list)
    payload: dict[str, Any] | None = None
    controls: dict[str, Any] | None = None
    to: Any = None
    tags: list[str] | None = None
    topics: list[Any] | None = None
    critical: bool | None = None
    context_keys: list[str] | None = Field(None, alias="contextKeys")

    @property
    def workflow_name(self) -> str:
        """The workflow's name, or a stand-in once it was deleted."""
        if self.template is not None and self.template.name:
            return self.template.name
        return "(deleted workflow)" if self.template_id else "(no workflow)"

    @property
    def delivery_jobs(self) -> list[ActivityJob]:
        """The jobs that deliver (one per channel step), in the order sent."""
        return [job for job in self.jobs if job.is_channel]
