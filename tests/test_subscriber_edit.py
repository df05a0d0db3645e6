"""The subscriber-data rules stated once (models/subscriber_edit.py): the checks
before sending, what each channel needs, the field a cause names, and the mask; and the
command line says exactly the refusals the app's form says."""

from __future__ import annotations

import pytest

from inboxdesk.models.subscriber_edit import (
    check_fields,
    field_of_cause,
    is_email,
    is_locale,
    is_timezone,
    mask,
    masked_credentials,
    needs,
)
from inboxdesk.writes import describe
from inboxdesk.writes.kinds.subscriber import subscriber_write


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("ada@example.com", True),
        ("a.b+c@mail.example.co.uk", True),
        ("ada@localhost", False),
        ("ada@example", False),
        ("ada example.com", False),
        ("@example.com", False),
        ("ada@example.c0m", False),
    ],
)
def test_email_has_production_s_shape(value: str, ok: bool) -> None:
    assert is_email(value) is ok


def test_timezone_locale_and_the_checks_before_sending() -> None:
    assert is_timezone("America/New_York") and is_timezone("UTC")
    assert not is_timezone("Mars/Olympus") and not is_timezone("america/new_york")
    assert is_locale("en") and is_locale("en-US") and is_locale("zh_Hant_TW")
    assert not is_locale("not a locale")
    checked = check_fields({"email": "x@y", "timezone": "", "phone": "555", "locale": "??"})
    assert len(checked.refusals) == 2  # the locale is the service's to refuse
    assert checked.warnings and "E.164" in checked.warnings[0]
    assert check_fields({"email": None, "phone": "+14155550100", "lastName": ""}) == (
        check_fields({})
    )
    assert check_fields({"data": [1]}).refusals == ("data must be a JSON object.",)
    assert check_fields({"subscriberId": "x"}).refusals


def test_what_each_channel_needs_and_the_field_a_cause_names() -> None:
    doc = {
        "email": "a@b.co",
        "phone": None,
        "channels": [
            {"providerId": "fcm", "credentials": {"deviceTokens": []}},
            {"providerId": "slack", "credentials": {}},
            {"providerId": "whatsapp-business", "credentials": {}},
        ],
    }
    assert [(n.channel, n.field) for n in needs(doc)] == [
        ("sms", "phone"),
        ("push", "deviceTokens:fcm"),
        ("chat", "webhookUrl:slack"),
    ]
    assert field_of_cause("Subscriber missing phone number") == "phone"
    assert field_of_cause("Subscriber missing email address") == "email"
    assert field_of_cause("Message bounced") == "email"
    assert (
        field_of_cause("Subscriber credentials is missing the tokens for sending a push")
        == "deviceTokens"
    )
    assert field_of_cause("Webhook URL for the chat channel is missing") == "webhookUrl"
    assert field_of_cause("Message sent") is None


def test_a_secret_is_masked_to_its_last_four_at_most() -> None:
    assert mask("tok-SENTINEL-7f3a9c2e5b81") == "••••5b81"
    assert mask("short") == "••••" and mask("") == ""
    shown = masked_credentials(
        {"deviceTokens": ["abcdefghijk"], "webhookUrl": "https://h.test/x/y", "channel": "#a"}
    )
    assert shown == {"deviceTokens": ["••••hijk"], "webhookUrl": "••••/x/y", "channel": "#a"}
    write = subscriber_write("ada", {"phone": "+1"}, {"phone": None})
    assert describe(write) == "ada: phone (none) → '+1'"
