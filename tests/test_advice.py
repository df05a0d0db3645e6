"""Provider codes in plain words (decision 94): a test per row of the table, and the
lookup's forms (SendGrid's event names, SMTP's enhanced status)."""

from __future__ import annotations

import pytest

from inboxdesk.core.delivery.advice import ROWS, advice

EXPECTED = [
    ("twilio", "21211", "not a valid phone number", "E.164"),
    ("twilio", "21408", "country", "geographic permissions"),
    ("twilio", "21610", "replied STOP", "texting START"),
    ("twilio", "21612", "cannot be reached by SMS", "another channel"),
    ("twilio", "21614", "not a mobile number", "mobile number"),
    ("twilio", "30003", "unreachable", "send again"),
    ("twilio", "30004", "blocked", "unblocks"),
    ("twilio", "30005", "no longer exists", "correct it"),
    ("twilio", "30006", "landline", "mobile number"),
    ("twilio", "30007", "filtered", "registration"),
    ("twilio", "30008", "unknown error", "Twilio support"),
    ("smtp", "550 5.1.1", "mailbox does not exist", "correct the subscriber's email"),
    ("smtp", "552", "mailbox is full", "frees space"),
    ("smtp", "554", "refused the message", "reputation"),
    ("sendgrid", "bounce", "hard bounce", "correct the email address"),
    ("sendgrid", "block", "for now", "reputation"),
    ("sendgrid", "drop", "suppression list", "suppressions"),
    ("fcm", "UNREGISTERED", "no longer valid", "new token"),
    ("apns", "BadDeviceToken", "not valid for this APNs environment", "fresh token"),
]


@pytest.mark.parametrize(("family", "code", "meaning", "todo"), EXPECTED)
def test_each_row(family: str, code: str, meaning: str, todo: str) -> None:
    found = advice(family, code)
    assert found is not None and found.code == code and found.family == family
    assert meaning in found.meaning and todo in found.todo
    assert found.words.startswith(f"{found.words.split()[0]} {code}: ")


def test_the_table_has_exactly_these_rows() -> None:
    assert sorted((a.family, a.code) for a in ROWS) == sorted((f, c) for f, c, _, _ in EXPECTED)


def test_lookup_forms() -> None:
    assert advice("Twilio", " 21610 ") is advice("twilio", "21610")
    assert advice("sendgrid", "blocked") is advice("sendgrid", "block")
    assert advice("sendgrid", "dropped") is advice("sendgrid", "drop")
    assert advice("smtp", "550-5.1.1") is advice("smtp", "550 5.1.1")
    assert advice("smtp", "552 5.2.2") is advice("smtp", "552")
    assert advice("fcm", "unregistered") is advice("fcm", "UNREGISTERED")
    assert advice("twilio", "99999") is None and advice("other", "21610") is None
    assert advice("smtp", "550") is None  # only 5.1.1 is listed under 550


def _job(kind: str, provider: str, raw: str) -> object:
    from inboxdesk.models.delivery import ActivityJob

    return ActivityJob.model_validate(
        {
            "type": kind,
            "providerId": provider,
            "executionDetails": [{"detail": "Unexpected provider error", "raw": raw}],
        }
    )


def test_the_code_is_read_for_display() -> None:
    from inboxdesk.core.delivery.advice_shown import advice_of

    cases = [
        ("sms", "twilio", '{"code": 21610, "message": "Attempt to send"}', "21610"),
        ("email", "sendgrid", '{"event": "dropped", "reason": "Bounced Address"}', "drop"),
        ("email", "nodemailer", "550 5.1.1 <ada@example.com>: user unknown", "550 5.1.1"),
        ("email", "ses", '{"message": "554 Message rejected"}', "554"),
        ("push", "fcm", '{"errorCode": "UNREGISTERED"}', "UNREGISTERED"),
        ("push", "apns", '{"reason": "BadDeviceToken"}', "BadDeviceToken"),
    ]
    for kind, provider, raw, code in cases:
        found = advice_of(_job(kind, provider, raw))  # type: ignore[arg-type]
        assert found is not None and found.code == code, (provider, raw)
    # Not an email: a number in the text is not an SMTP code.
    assert advice_of(_job("sms", "plivo", "error 554 at node")) is None  # type: ignore[arg-type]
