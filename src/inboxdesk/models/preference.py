"""A subscriber's preferences (v2): which channels each workflow may use for them.

Read loosely: production leaves out the channels no active step uses, an older
deployment may leave out `enabled` or `overrides`, and a newer one may name a channel
this version does not know; every such body still reads.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field

from inboxdesk.models.base import ApiModel, Open
from inboxdesk.models.enums import Channel

# The channels a preference can name, in the service's order: every delivery channel.
PREFERENCE_CHANNELS: tuple[str, ...] = tuple(c.value for c in Channel)
# The most workflows one listing gives, and the most items of one bulk change.
MAX_PREFERENCE_WORKFLOWS = 200
MAX_BULK_PREFERENCES = 100


class Criticality(StrEnum):
    """Which workflows a listing gives: critical ones cannot be changed by the subscriber."""

    NON_CRITICAL = "nonCritical"
    CRITICAL = "critical"
    ALL = "all"


class OverrideSource(StrEnum):
    """Where a workflow's channel value comes from."""

    TEMPLATE = "template"  # the workflow's default
    SUBSCRIBER = "subscriber"  # the subscriber's own choice, global or for the workflow
    WORKFLOW_OVERRIDE = "workflowOverride"


class PreferenceOverride(ApiModel):
    channel: str
    source: Open[OverrideSource]


class PreferenceWorkflowInfo(ApiModel):
    slug: str = ""
    identifier: str = ""
    name: str = ""
    updated_at: str | None = Field(None, alias="updatedAt")


class GlobalPreference(ApiModel):
    enabled: bool = True
    channels: dict[str, bool | None] = Field(default_factory=dict)
    schedule: dict[str, Any] | None = None


class WorkflowPreference(ApiModel):
    enabled: bool = True
    channels: dict[str, bool | None] = Field(default_factory=dict)
    overrides: list[PreferenceOverride] = Field(default_factory=list)
    workflow: PreferenceWorkflowInfo = Field(default_factory=PreferenceWorkflowInfo)
    updated_at: str | None = Field(None, alias="updatedAt")

    def source(self, channel: str) -> str | None:
        """Where the channel's value comes from, as the service says; None: not said."""
        for override in self.overrides:
            if override.channel == channel:
                return str(override.source)
        return None


class SubscriberPreferences(ApiModel):
    """The body of `GET` and `PATCH /v2/subscribers/{id}/preferences` (inside `data`)."""

    global_: GlobalPreference = Field(default_factory=GlobalPreference, alias="global")
    workflows: list[WorkflowPreference] = Field(default_factory=list)


class PreferenceChange(ApiModel):
    """The body of `PATCH /v2/subscribers/{id}/preferences`: the channels to change, of
    one workflow (its `_id`, trigger identifier or slug), or globally without one."""

    channels: dict[str, bool] | None = None
    workflow_id: str | None = Field(None, alias="workflowId")
    schedule: dict[str, Any] | None = None
    # The context the change is for (`{type: id}`); none: the no-context records.
    context: dict[str, str] | None = None


class BulkWorkflow(ApiModel):
    id: str = ""
    identifier: str = ""
    name: str = ""
    critical: bool = False
    tags: list[str] | None = None
    data: dict[str, Any] | None = None
    severity: str | None = None


class BulkPreference(ApiModel):
    """One item of the answer to a bulk change: a workflow's channels after it."""

    level: str = "template"
    enabled: bool = True
    channels: dict[str, bool | None] = Field(default_factory=dict)
    workflow: BulkWorkflow | None = None
