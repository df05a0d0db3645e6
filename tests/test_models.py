"""The models against the production service's OpenAPI excerpt, and their tolerance."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

import pytest
from pydantic import BaseModel

from inboxdesk import models
from inboxdesk.models import enums
from inboxdesk.models.message import EmailBlockStyles
from inboxdesk.models.subscriber import ChannelCredentials
from inboxdesk.models.workflow import NotificationStepVariant, PreferenceSettings, ReplyCallback
from tests.conftest import CONTRACT

SPEC = json.loads(CONTRACT.read_text())
SCHEMAS: dict[str, Any] = SPEC["components"]["schemas"]

PAIRS: list[tuple[type[BaseModel], str]] = [
    (models.Integration, "IntegrationResponseDto"),
    (models.Credentials, "CredentialsDto"),
    (models.Configurations, "ConfigurationsDto"),
    (models.StepFilter, "StepFilterDto"),
    (models.FieldFilterPart, "FieldFilterPartDto"),
    (models.Message, "MessageResponseDto"),
    (models.EmailBlock, "EmailBlock"),
    (EmailBlockStyles, "EmailBlockStyles"),
    (models.MessageCTA, "MessageCTA"),
    (models.MessageCTAData, "MessageCTAData"),
    (models.MessageAction, "MessageAction"),
    (models.MessageButton, "MessageButton"),
    (models.MessageActionResult, "MessageActionResult"),
    (models.Subscriber, "SubscriberResponseDto"),
    (models.ChannelSettings, "ChannelSettingsDto"),
    (ChannelCredentials, "ChannelCredentials"),
    (models.Workflow, "WorkflowResponse"),
    (models.NotificationStep, "NotificationStepDto"),
    (NotificationStepVariant, "NotificationStepData"),
    (models.DigestRegularMetadata, "DigestRegularMetadata"),
    (models.DigestTimedMetadata, "DigestTimedMetadata"),
    (models.DelayRegularMetadata, "DelayRegularMetadata"),
    (models.DelayScheduledMetadata, "DelayScheduledMetadata"),
    (models.TimedConfig, "TimedConfig"),
    (models.NotificationTrigger, "NotificationTrigger"),
    (models.NotificationGroup, "NotificationGroup"),
    (ReplyCallback, "ReplyCallback"),
    (PreferenceSettings, "SubscriberPreferenceChannels"),
    (models.MarkAsRequest, "MessageMarkAsRequestDto"),
]

# Where api.md (the contract) and the excerpt differ, api.md wins. Each difference, on purpose:
FIELDS_ONLY_IN_EXCERPT = {
    # A newer field than api.md; kept through extra="allow" when a server sends it.
    "IntegrationResponseDto": {"kind"},
    # Newer credential fields; the brand-named base URL is AppBaseUrl in api.md.
    "CredentialsDto": {
        "tenantId",
        "AppIOBaseUrl",
        "signingSecret",
        "outboundIntegrationId",
        "outboundConnectedAt",
        "whatsNextCompletedAt",
        "useFromAddressOverride",
        "fromAddressOverride",
        "emailSlugPrefix",
        "externalEnvironmentId",
        "externalVaultId",
        "externalWorkspaceId",
    },
}
FIELDS_ONLY_IN_MODELS = {"CredentialsDto": {"AppBaseUrl"}}
REQUIRED_DIFFERENCES = {
    # api.md marks channel and credentials of Integration required; the excerpt does not.
    "IntegrationResponseDto": {"channel", "credentials"},
}


def wire_fields(model: type[BaseModel]) -> dict[str, bool]:
    return {(f.alias or name): f.is_required() for name, f in model.model_fields.items()}


@pytest.mark.parametrize(("model", "schema"), PAIRS, ids=[s for _, s in PAIRS])
def test_field_names_and_required_sets_match(model: type[BaseModel], schema: str) -> None:
    spec = SCHEMAS[schema]
    ours = wire_fields(model)
    theirs = set(spec.get("properties", {}))
    assert theirs - set(ours) == FIELDS_ONLY_IN_EXCERPT.get(schema, set())
    assert set(ours) - theirs == FIELDS_ONLY_IN_MODELS.get(schema, set())
    required = {name for name, req in ours.items() if req}
    assert required ^ set(spec.get("required", [])) == REQUIRED_DIFFERENCES.get(schema, set())


def enum_values(schema: dict[str, Any]) -> list[str] | None:
    if "enum" in schema:
        return list(schema["enum"])
    if "$ref" in schema:
        return enum_values(SCHEMAS[schema["$ref"].rsplit("/", 1)[1]])
    for key in ("allOf", "oneOf", "anyOf"):
        for part in schema.get(key, []):
            found = enum_values(part)
            if found:
                return found
    if schema.get("type") == "array":
        return enum_values(schema["items"])
    return None


ENUMS = [
    ("IntegrationResponseDto", "channel", enums.Channel),
    ("MessageResponseDto", "status", enums.MessageStatus),
    ("MessageMarkAsRequestDto", "markAs", enums.MarkAs),
    ("MessageAction", "status", enums.ActionStatus),
    ("MessageButton", "type", enums.ButtonType),
    ("MessageCTA", "type", enums.CtaType),
    ("EmailBlock", "type", enums.EmailBlockType),
    ("EmailBlockStyles", "textAlign", enums.TextAlign),
    ("StepFilterDto", "type", enums.FilterType),
    ("StepFilterDto", "value", enums.FilterJoin),
    ("FieldFilterPartDto", "operator", enums.FilterOperator),
    ("FieldFilterPartDto", "on", enums.FilterOn),
    ("DigestRegularMetadata", "unit", enums.TimeUnit),
    ("DigestRegularMetadata", "type", enums.DigestType),
    ("DigestTimedMetadata", "type", enums.DigestTimedType),
    ("DelayRegularMetadata", "type", enums.DelayType),
    ("DelayScheduledMetadata", "type", enums.DelayScheduledType),
    ("TimedConfig", "weekDays", enums.WeekDay),
    ("TimedConfig", "ordinal", enums.Ordinal),
    ("TimedConfig", "ordinalValue", enums.OrdinalValue),
    ("TimedConfig", "monthlyType", enums.MonthlyType),
    ("NotificationTrigger", "type", enums.TriggerType),
]


@pytest.mark.parametrize(("schema", "field", "enum"), ENUMS, ids=[f"{s}.{f}" for s, f, _ in ENUMS])
def test_enum_values_match(schema: str, field: str, enum: type[StrEnum]) -> None:
    values = enum_values(SCHEMAS[schema]["properties"][field])
    if values is None and schema == "IntegrationResponseDto":
        values = SCHEMAS["ChannelTypeEnum"]["enum"]
    assert values == [e.value for e in enum]


MESSAGE: dict[str, Any] = {
    "_environmentId": "e",
    "_organizationId": "o",
    "_notificationId": "n",
    "_subscriberId": "s",
    "createdAt": "2026-01-01T00:00:00.000Z",
    "transactionId": "t",
    "channel": "in_app",
    "read": False,
    "seen": False,
    "cta": {},
    "status": "sent",
}


def test_unknown_fields_are_kept_and_round_trip() -> None:
    message = models.Message.model_validate({**MESSAGE, "archived": True, "tags": ["x"]})
    assert message.to_wire()["archived"] is True and message.to_wire()["tags"] == ["x"]


def test_unknown_enum_values_read_as_strings() -> None:
    message = models.Message.model_validate(
        {
            **MESSAGE,
            "channel": "carrier_pigeon",
            "status": "queued",
            "cta": {
                "type": "popup",
                "action": {"status": "snoozed", "buttons": [{"type": "tertiary", "content": "x"}]},
            },
        }
    )
    assert message.channel == "carrier_pigeon" and not isinstance(message.channel, enums.Channel)
    assert message.status == "queued"
    assert message.cta.action is not None and message.cta.action.status == "snoozed"
    known = models.Message.model_validate(MESSAGE)
    assert known.channel is enums.Channel.IN_APP and known.status is enums.MessageStatus.SENT


def test_one_bad_item_does_not_make_a_page_unreadable() -> None:
    page = models.Page[models.Message].model_validate(
        {
            "data": [MESSAGE, {**MESSAGE, "status": "brand-new"}],
            "page": 0,
            "pageSize": 10,
            "hasMore": False,
        }
    )
    assert [m.status for m in page.data] == ["sent", "brand-new"]


def test_nullable_fields_accept_null() -> None:
    message = models.Message.model_validate(
        {
            **MESSAGE,
            "_templateId": None,
            "_messageTemplateId": None,
            "_feedId": None,
            "content": None,
        }
    )
    assert message.template_id is None and message.content is None
    subscriber = models.Subscriber.model_validate(
        {
            "subscriberId": "a",
            "_organizationId": "o",
            "_environmentId": "e",
            "deleted": False,
            "createdAt": "x",
            "updatedAt": "y",
            "firstName": None,
            "lastName": None,
            "email": None,
            "phone": None,
            "avatar": None,
            "locale": None,
            "isOnline": None,
            "lastOnlineAt": None,
            "data": None,
            "timezone": None,
        }
    )
    assert subscriber.display_name == "a"


def test_required_fields_are_enforced() -> None:
    with pytest.raises(ValueError, match="transactionId"):
        models.Message.model_validate({k: v for k, v in MESSAGE.items() if k != "transactionId"})


def test_credentials_never_show_secrets() -> None:
    creds = models.Credentials.model_validate(
        {"apiKey": "SG.verysecretvalue1234", "from": "a@b.c", "password": "hunter22", "port": "587"}
    )
    assert "verysecret" not in repr(creds) and "hunter" not in str(creds)
    shown = creds.masked()
    assert shown == {"apiKey": "••••1234", "from": "a@b.c", "password": "••••", "port": "587"}


def test_step_metadata_kinds_are_told_apart() -> None:
    step = models.NotificationStep.model_validate
    assert isinstance(
        step({"metadata": {"type": "regular", "amount": 5}}).metadata, models.DelayRegularMetadata
    )
    assert isinstance(
        step({"metadata": {"type": "regular", "digestKey": "k"}}).metadata,
        models.DigestRegularMetadata,
    )
    assert isinstance(
        step({"metadata": {"type": "backoff"}}).metadata, models.DigestRegularMetadata
    )
    assert isinstance(step({"metadata": {"type": "timed"}}).metadata, models.DigestTimedMetadata)
    assert isinstance(
        step({"metadata": {"type": "scheduled", "delayPath": "p"}}).metadata,
        models.DelayScheduledMetadata,
    )
    assert step({"metadata": {"type": "throttle"}}).metadata == {"type": "throttle"}
