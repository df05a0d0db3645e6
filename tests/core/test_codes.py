"""The provider's code read from `raw`, one parser per provider family, from the shapes
each family really answers with."""

from __future__ import annotations

import json

import pytest

from inboxdesk.core.delivery.codes import OTHER, ProviderCode, provider_code, smtp_status


@pytest.mark.parametrize(
    "provider, raw, expected",
    [
        # Twilio's REST error.
        (
            "twilio",
            {
                "status": 400,
                "code": 21610,
                "message": "Attempt to send to unsubscribed recipient",
                "more_info": "https://www.twilio.com/docs/errors/21610",
            },
            ("twilio", "21610"),
        ),
        (
            "twilio",
            {"message": "see https://www.twilio.com/docs/errors/21211"},
            ("twilio", "21211"),
        ),
        ("twilio", "Twilio error 21614: not a mobile number", ("twilio", "21614")),
        # SendGrid's event webhook: the SMTP status of the reason, else its own reason.
        (
            "sendgrid",
            {"event": "bounce", "reason": "550 5.1.1 The email account does not exist"},
            ("sendgrid", "550 5.1.1"),
        ),
        (
            "sendgrid",
            {"event": "dropped", "reason": "Bounced Address"},
            ("sendgrid", "Bounced Address"),
        ),
        ("sendgrid", {"errors": [{"message": "421-4.7.0 try later"}]}, ("sendgrid", "421 4.7.0")),
        ("sendgrid", {"event": "spamreport"}, ("sendgrid", "spamreport")),
        # Mail servers through SMTP-speaking providers.
        (
            "nodemailer",
            {"code": "EENVELOPE", "response": "550 5.1.1 <bob@example.test>: Recipient unknown"},
            ("smtp", "550 5.1.1"),
        ),
        (
            "ses",
            {"bounce": {"bouncedRecipients": [{"diagnosticCode": "smtp; 554 5.7.1 Rejected"}]}},
            ("smtp", "554 5.7.1"),
        ),
        ("mailgun", "452 mailbox full", ("smtp", "452")),
        ("postmark", {"message": "status 5.2.2 over quota"}, ("smtp", "5.2.2")),
        # FCM v1, firebase-admin, and the legacy API.
        (
            "fcm",
            {
                "error": {
                    "code": 404,
                    "status": "NOT_FOUND",
                    "details": [
                        {
                            "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                            "errorCode": "UNREGISTERED",
                        }
                    ],
                }
            },
            ("fcm", "UNREGISTERED"),
        ),
        (
            "fcm",
            {"errorInfo": {"code": "messaging/registration-token-not-registered", "message": "x"}},
            ("fcm", "messaging/registration-token-not-registered"),
        ),
        (
            "fcm",
            {"error": {"code": 400, "status": "INVALID_ARGUMENT"}},
            ("fcm", "INVALID_ARGUMENT"),
        ),
        ("fcm", {"error": "NotRegistered"}, ("fcm", "NotRegistered")),
        # APNs, directly and through node-apn's failure list.
        ("apns", {"reason": "BadDeviceToken"}, ("apns", "BadDeviceToken")),
        (
            "apns",
            {"failed": [{"device": "d", "status": "410", "response": {"reason": "Unregistered"}}]},
            ("apns", "Unregistered"),
        ),
        # No known family: a code where one is given, else an SMTP status, else none.
        ("slack", {"ok": False, "code": "invalid_token"}, (OTHER, "invalid_token")),
        ("pagerduty", {"status": 400, "message": "bad"}, (OTHER, "400")),
        (None, "connection refused by 550 5.7.1 relay", (OTHER, "550 5.7.1")),
        ("slack", "no_service", (OTHER, "")),
    ],
)
def test_each_family_reads_its_code(
    provider: str | None, raw: object, expected: tuple[str, str]
) -> None:
    text = raw if isinstance(raw, str) else json.dumps(raw)
    found = provider_code(provider, text)
    assert (found.family, found.code) == expected


def test_sendgrid_s_event_is_kept_beside_its_code_and_fcm_s_top_level_code_is_read() -> None:
    # The advice table keys SendGrid on its event; the group keys on the SMTP status.
    bounce = {"event": "bounce", "reason": "550 5.1.1 no such user"}
    assert provider_code("sendgrid", json.dumps(bounce)) == ProviderCode(
        "sendgrid", "550 5.1.1", "bounce"
    )
    # Only SendGrid's answers name an event.
    assert provider_code("twilio", json.dumps({"event": "x", "code": 21610})).event == ""
    assert provider_code("fcm", json.dumps({"errorCode": "UNREGISTERED"})) == ProviderCode(
        "fcm", "UNREGISTERED"
    )


def test_prose_is_never_a_code() -> None:
    # A long free-text reason would make one group per recipient: it is no code.
    reason = "The recipient's mailbox at example.test could not be found, please check it again"
    assert provider_code("sendgrid", json.dumps({"reason": reason})).code == ""
    assert provider_code("twilio", json.dumps({"message": reason})).code == ""


def test_nothing_to_read_is_no_code() -> None:
    assert provider_code("twilio", None) == ProviderCode("twilio", "")
    assert provider_code("TWILIO", "") == ProviderCode("twilio", "")
    assert provider_code("twilio", "null").code == ""
    assert provider_code("fcm", "[1, 2]").code == ""
    # Nested deeper than the JSON reader goes: read as text, as any other non-JSON.
    assert provider_code("twilio", "[" * 100_000).code == ""


@pytest.mark.parametrize(
    "text, status",
    [
        ("550 5.1.1 user unknown", "550 5.1.1"),
        ("smtp; 550-5.1.1 nope", "550 5.1.1"),
        ("421 try later", "421"),
        ("bounce 5.7.26 unauthenticated", "5.7.26"),
        ("version 1.550.2", ""),
        ("order 15501 shipped", ""),
    ],
)
def test_smtp_status(text: str, status: str) -> None:
    assert smtp_status(text) == status


def test_an_answer_nested_past_python_s_limit_is_read_as_text() -> None:
    # json.loads raises RecursionError, not ValueError, on such an answer: grouping and
    # the advice beside it read it as text rather than crash.
    deep = "[" * 100_000 + '"550 5.1.1"' + "]" * 100_000
    assert provider_code("ses", deep) == ProviderCode("smtp", "550 5.1.1")
