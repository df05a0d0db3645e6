"""The models against the production service's OpenAPI excerpt, and their tolerance."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

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
    (models.FeedItem, "NotificationFeedItemDto"),
    (models.FeedSubscriber, "SubscriberFeedResponseDto"),
    (models.FeedActor, "ActorFeedItemDto"),
    (models.Page[models.FeedItem], "FeedResponseDto"),
    (models.Page[models.Message], "MessagesResponseDto"),
    (models.CursorPage[models.Subscriber], "ListSubscribersResponseDto"),
    (models.NotificationCount, "GetSubscriberNotificationsCountResponseDto"),
    (models.UnseenCount, "UnseenCountResponse"),
    (models.ErrorBody, "ErrorDto"),
    (models.Environment, "EnvironmentResponseDto"),
]

# Where the contract and the excerpt differ, the contract wins. Each difference, on purpose:
FIELDS_ONLY_IN_EXCERPT = {
    # Newer credential fields; the brand-named base URL is AppBaseUrl in the contract.
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
    # Extra context for some errors; kept through extra="allow".
    "ErrorDto": {"ctx"},
    # Secret keys: dropped as the body is read, never held.
    "EnvironmentResponseDto": {"apiKeys"},
}
FIELDS_ONLY_IN_MODELS = {
    # Production's integrations carry them; its document leaves them out.
    "IntegrationResponseDto": {"priority", "rules"},
    # How many keys were dropped, never sent on.
    "EnvironmentResponseDto": {"api_key_count"},
    "CredentialsDto": {"AppBaseUrl"},
    # Production's feed items are its message documents: the DTO lists a part of what
    # they carry. These are the Message fields they hold beside it, and the workflow
    # subset production's feed sends.
    "NotificationFeedItemDto": {
        "title",
        "lastSeenDate",
        "lastReadDate",
        "deliveredAt",
        "snoozedUntil",
        "email",
        "phone",
        "directWebhookUrl",
        "errorId",
        "errorText",
        "contextKeys",
        "template",
    },
    # The error name, the 422 field detail.
    "ErrorDto": {"error", "errors"},
}
REQUIRED_DIFFERENCES = {
    # Conditions as production's database holds them: older
    # dashboards wrote items with only children and value, children with any shape.
    "StepFilterDto": {"isNegated", "type", "value", "children"},
    "FieldFilterPartDto": {"field", "value", "operator", "on"},
    # Required by the document, read leniently: no view needs them and a local or older
    # service may leave them out (archived reads as false, content as empty).
    "NotificationFeedItemDto": {"_templateId", "_jobId", "content", "archived"},
    # Some versions of production leave the counts out (only data, next and previous).
    "ListSubscribersResponseDto": {"next", "previous", "totalCount", "totalCountCapped"},
    # Every error body is read, even one without its timestamp or path.
    "ErrorDto": {"timestamp", "path"},
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
    ("NotificationFeedItemDto", "status", enums.MessageStatus),
    ("NotificationFeedItemDto", "channel", enums.Channel),
    ("ActorFeedItemDto", "type", enums.ActorType),
    ("IntegrationResponseDto", "kind", enums.IntegrationKind),
]


@pytest.mark.parametrize(("schema", "field", "enum"), ENUMS, ids=[f"{s}.{f}" for s, f, _ in ENUMS])
def test_enum_values_match(schema: str, field: str, enum: type[StrEnum]) -> None:
    values = enum_values(SCHEMAS[schema]["properties"][field])
    assert values is not None
    assert [*values, *ENUM_VALUES_ONLY_IN_MODELS.get(f"{schema}.{field}", [])] == [
        e.value for e in enum
    ]


# Values production's database holds that its document does not list.
ENUM_VALUES_ONLY_IN_MODELS = {"FieldFilterPartDto.on": ["tenant"]}


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


def test_masking_keeps_a_flag_that_says_tls_checking_is_off() -> None:
    creds = models.Credentials.model_validate(
        {"password": "hunter22", "tlsOptions": {"rejectUnauthorized": False, "ca": None}}
    )
    shown = creds.masked()
    assert shown["tlsOptions"] == {"rejectUnauthorized": False, "ca": None}
    assert shown["password"] == "••••"


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


FEED_ITEM: dict[str, Any] = {
    **MESSAGE,
    "_id": "65f000000000000000000001",
    "_templateId": "t",
    "_jobId": "j",
    "content": "Plain text",
    "archived": False,
    "subscriber": {"_id": "s", "firstName": "Ada", "subscriberId": "ada"},
    "template": {"_id": "t", "tags": ["billing"]},
}


def test_a_feed_item_is_read_in_production_shape() -> None:
    item = models.FeedItem.model_validate(FEED_ITEM)
    assert item.subscriber is not None and item.subscriber.display_name == "Ada"
    assert item.template is not None and item.template.tags == ["billing"]
    assert item.preview == "Plain text" and item.job_id == "j" and item.archived is False
    blocks = models.FeedItem.model_validate(
        {**FEED_ITEM, "content": [{"type": "text", "content": "One"}], "createdAt": None}
    )
    assert blocks.preview == "One" and blocks.created_at is None


def test_numbers_read_as_sent_whole_fractional_or_negative() -> None:
    """Every field the document types as a number reads any JSON number, kept as sent."""
    page = models.Page[models.FeedItem].model_validate_json(
        json.dumps(
            {"data": [FEED_ITEM], "page": 2.0, "pageSize": 2.5, "totalCount": -1, "hasMore": False}
        )
    )
    assert (page.page, page.page_size, page.total_count) == (2, 2.5, -1)
    subscriber = models.Subscriber.model_validate(
        {
            "subscriberId": "a",
            "_organizationId": "o",
            "_environmentId": "e",
            "deleted": False,
            "createdAt": "x",
            "updatedAt": "y",
            "__v": 0.5,
        }
    )
    assert subscriber.to_wire()["__v"] == 0.5
    cursor = models.CursorPage[models.Subscriber].model_validate(
        {"data": [], "next": None, "previous": None, "totalCount": 3.5, "totalCountCapped": False}
    )
    assert cursor.total_count == 3.5
    assert models.NotificationCount.model_validate({"count": -3, "filter": {}}).count == -3
    assert models.UnseenCount.model_validate({"count": 1.5}).count == 1.5
    assert models.ErrorBody.model_validate({"statusCode": 404.0}).status_code == 404
    assert models.Integration.model_validate({**INTEGRATION, "priority": 1.5}).priority == 1.5


@pytest.mark.parametrize("count", ["3", True, None, [1], {"n": 1}])
def test_a_count_that_is_not_a_number_is_refused(count: object) -> None:
    with pytest.raises(ValidationError):
        models.NotificationCount.model_validate({"count": count, "filter": {}})
    with pytest.raises(ValidationError):
        models.Page[models.FeedItem].model_validate(
            {"data": [], "page": 0, "pageSize": 10, "totalCount": count or "x", "hasMore": False}
        )


def test_a_number_past_a_floats_range_is_refused() -> None:
    with pytest.raises(ValidationError):
        models.UnseenCount.model_validate_json(b'{"count": 1e400}')


@pytest.mark.parametrize(
    ("value", "whole"),
    [(2, True), (2.0, True), (0, True), (2.5, False), (-3, False), (None, False)],
)
def test_only_whole_numbers_from_zero_can_count_or_page(value: float | None, whole: bool) -> None:
    from inboxdesk.models.base import is_whole

    assert is_whole(value) is whole


INTEGRATION: dict[str, Any] = {
    "_environmentId": "e",
    "_organizationId": "o",
    "name": "Agent",
    "identifier": "agent-1",
    "providerId": "novu-agent",
    "active": True,
    "deleted": False,
    "primary": False,
}


def test_integrations_without_credentials_or_channel_are_read() -> None:
    agent = models.Integration.model_validate({**INTEGRATION, "kind": "agent"})
    assert agent.channel is None and agent.credentials is None
    assert agent.kind is enums.IntegrationKind.AGENT and not agent.supports_primary
    assert agent.masked()["name"] == "Agent" and "credentials" not in agent.masked()


def test_secret_looking_values_are_masked_and_types_kept() -> None:
    item = models.Integration.model_validate(
        {
            **INTEGRATION,
            "channel": "email",
            "credentials": {"apiKey": "SG.verysecretvalue1234", "hmac": True, "port": "587"},
            "configurations": {
                "inboundWebhookEnabled": True,
                "inboundWebhookSigningKey": "whsec_abcdefghijklmnop",
                "callbackToken": "tok-0123456789",
                "note": "whsec_unnamedbutsecret99",
                "region": "eu",
            },
            "__v": 0,
        }
    )
    shown = item.masked()
    assert shown["credentials"] == {"apiKey": "••••1234", "hmac": True, "port": "587"}
    assert shown["configurations"] == {
        "inboundWebhookEnabled": True,
        "inboundWebhookSigningKey": "••••mnop",
        "callbackToken": "••••6789",
        "note": "••••et99",
        "region": "eu",
    }
    assert shown["__v"] == 0 and shown["active"] is True
    assert "whsec_abc" not in repr(item.configurations)
    assert models.mask_secrets({"password": 1234, "list": ["xoxb-123456789"]}) == {
        "password": "••••",
        "list": ["••••6789"],
    }


def test_counts_past_the_cap_show_as_99_plus() -> None:
    assert str(models.Count.of(7)) == "7"
    assert str(models.Count.of(100)) == "99+" and models.Count.of(100).capped
    assert str(models.Count(3, capped=True)) == "99+"
    assert not models.Count.of(99).capped


ID_A, ID_B = "65f000000000000000000001", "65f000000000000000000002"


@pytest.mark.parametrize(
    ("message_id", "ids"),
    [(ID_A, [ID_A]), (ID_A.upper(), [ID_A]), ([ID_A, ID_B], [ID_A, ID_B])],
)
def test_mark_as_request_reads_one_id_or_an_array(message_id: object, ids: list[str]) -> None:
    body = models.MarkAsRequest.model_validate({"messageId": message_id, "markAs": "seen"})
    assert body.ids == ids and body.mark_as is enums.MarkAs.SEEN


@pytest.mark.parametrize(
    "message_id",
    [f"{ID_A},{ID_B}", f"{ID_A},nope", "", [], None, [ID_A, 7], 7, {"id": ID_A}, [ID_A] * 1001],
)
def test_mark_as_request_refuses_what_is_not_ids(message_id: object) -> None:
    with pytest.raises(ValidationError, match="messageId"):
        models.MarkAsRequest.model_validate({"messageId": message_id, "markAs": "read"})


def test_request_models_serialise_to_the_wire_names() -> None:
    body = models.MarkAsRequest(message_id=[ID_A], mark_as=enums.MarkAs.READ)
    assert body.to_wire() == {"messageId": [ID_A], "markAs": "read"}
    assert models.MarkAllRequest(mark_as=enums.MarkAs.UNSEEN).to_wire() == {"markAs": "unseen"}


def test_every_public_name_resolves_and_a_submodule_imports_alone() -> None:
    """The package imports each model on first use: every name still resolves, and one
    submodule (the config's enums) does not bring in the others."""
    import subprocess
    import sys

    for name in models.__all__:
        assert getattr(models, name) is not None, name
    assert set(models.__all__) <= set(dir(models))
    code = (
        "import sys; from inboxdesk.models.enums import Region; "
        "print(sorted(m for m in sys.modules if m.startswith('inboxdesk.models.')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.strip() == "['inboxdesk.models.enums']", loaded


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("url", "https://mailer:hunter2hunter2@smtp.acme.test/"),
        ("pass", "hunter2hunter2"),
        ("endpoint", "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXX"),
        ("target", "https://discord.com/api/webhooks/123/abcdefabcdef"),
        ("header", "Bearer abcdefabcdef0123456789"),
        ("pem", "-----BEGIN RSA PRIVATE KEY-----\nMIIEabcdef\n-----END RSA PRIVATE KEY-----"),
        ("webhookUrl", "https://chat.acme.test/hook/abcdef0123456789"),
    ],
)
def test_secrets_are_masked_by_name_or_by_shape(name: str, value: str) -> None:
    shown = models.mask_secrets({name: value})[name]
    assert shown.startswith("••••") and value[:-4] not in shown


def test_public_settings_stay_readable() -> None:
    plain = {"url": "https://acme.test/path", "passive": "yes", "from": "a@b.test"}
    assert models.mask_secrets(plain) == plain
