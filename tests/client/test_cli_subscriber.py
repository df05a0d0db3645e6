"""`inboxdesk subscriber`, `set-subscriber` and `credentials` on the real service: show
(masked), change, undo, change again, the refusals and warning of the checks before
sending, secrets from standard input only, read-only, and the service gone mid-change."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import httpx
import pytest

from tests.client.conftest import run
from tests.client.faults import loopback_client
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.loopback import loopback
from tests.subscriber_fixture import SENTINEL, subscriber_fixture


@pytest.fixture
def sub_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, make_service: ServiceFactory
) -> Service:
    service = make_service(subscriber_fixture())
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", service.url)
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    return service


def _shown(capsys: pytest.CaptureFixture[str], who: str) -> dict[str, object]:
    code, out, err = run(capsys, "subscriber", who, "--json")
    assert code == 0, err
    data: dict[str, object] = json.loads(out)["data"]
    return data


def _undo_id(out: str) -> str:
    return out.rsplit("inboxdesk undo ", 1)[1].split()[0]


def test_grace_s_phone_is_fixed_undone_and_fixed_again(
    sub_env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "subscriber", "grace.hopper")
    assert code == 0, err
    assert "sms has no phone number" in out and "push has no provider entry" in out
    code, out, err = run(capsys, "set-subscriber", "grace.hopper", "--phone", "+14155550100")
    assert code == 0, err
    assert "phone (none) → '+14155550100'" in out
    assert _shown(capsys, "grace.hopper")["phone"] == "+14155550100"
    code, out, err = run(capsys, "undo", _undo_id(out), "--yes")
    assert code == 0, err
    assert _shown(capsys, "grace.hopper")["phone"] is None
    code, out, err = run(
        capsys, "set-subscriber", "grace.hopper", "--phone", "+14155550199", "--unset", "locale"
    )
    assert code == 0, err
    assert _shown(capsys, "grace.hopper")["phone"] == "+14155550199"


def test_the_checks_before_sending_refuse_and_warn(
    sub_env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    for option, value, words in (
        ("--email", "grace@localhost", "email must be an address"),
        ("--email", "", "email cannot be empty"),
        ("--timezone", "Mars/Olympus", "IANA time zone"),
    ):
        code, _, err = run(capsys, "set-subscriber", "grace.hopper", option, value)
        assert code == 2 and words in err and "nothing was sent" in err
    # The locale is the service's to refuse: its 422, in words.
    code, _, err = run(capsys, "set-subscriber", "grace.hopper", "--locale", "not a locale")
    assert code == 1 and "locale must be locale" in err
    # A phone not in E.164 is a warning, never a refusal.
    code, _out, err = run(capsys, "set-subscriber", "grace.hopper", "--phone", "555-0100")
    assert code == 0 and "not in E.164" in err
    assert _shown(capsys, "grace.hopper")["phone"] == "555-0100"
    code, _, err = run(capsys, "set-subscriber", "nobody", "--phone", "+14155550100")
    assert code == 1 and "nobody" in err


def test_a_token_from_stdin_added_removed_and_the_removal_undone(
    sub_env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Never from the arguments: the value is neither used nor repeated.
    code, out, err = run(
        capsys, "credentials", "ada.lovelace", "--provider", "fcm", "--add-token", SENTINEL
    )
    assert code == 2 and SENTINEL not in out + err and "standard input" in err
    monkeypatch.setattr("sys.stdin", io.StringIO(SENTINEL + "\n"))
    code, out, err = run(
        capsys, "credentials", "ada.lovelace", "--provider", "fcm", "--add-token", "-"
    )
    assert code == 0, err
    assert SENTINEL not in out + err and "••••5b81" in out
    shown = json.dumps(_shown(capsys, "ada.lovelace"))
    assert SENTINEL not in shown and "tok-a1" not in shown
    code, out, err = run(capsys, "credentials", "ada.lovelace", "--provider", "fcm", "--remove")
    assert code == 0, err
    removal = _undo_id(out)
    assert _shown(capsys, "ada.lovelace")["channels"] == [
        {
            "providerId": "slack",
            "_integrationId": "65f000000000000000000012",
            "credentials": {"webhookUrl": "••••/ada"},
        }
    ]
    code, out, err = run(capsys, "undo", removal, "--yes")
    assert code == 0, err
    assert "Restored under the integration FCM main." in out
    channels = _shown(capsys, "ada.lovelace")["channels"]
    assert isinstance(channels, list)
    assert channels[-1]["providerId"] == "fcm"
    assert channels[-1]["credentials"]["deviceTokens"] == ["••••", "••••", "••••5b81"]
    # Nothing anywhere on the command line's History shows the sentinel whole.
    code, out, err = run(capsys, "history", "--json")
    assert code == 0, err
    assert SENTINEL not in out and "5b81" in out
    code, out, err = run(capsys, "history")
    assert code == 0 and SENTINEL not in out and "credentials-removed" in out, err
    code, out, err = run(capsys, "history", "--export", "csv")
    assert code == 0, err
    assert SENTINEL not in out and "credentials-removed" in out


def test_read_only_and_the_service_gone(
    sub_env: Service,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    make_service: ServiceFactory,
) -> None:
    monkeypatch.setenv("INBOXDESK_READ_ONLY", "1")
    code, _out, err = run(capsys, "set-subscriber", "grace.hopper", "--phone", "+14155550100")
    assert code == 2 and "Read-only" in err
    monkeypatch.setattr("sys.stdin", io.StringIO(SENTINEL))
    code, _, err = run(capsys, "credentials", "ada.lovelace", "--provider", "fcm", "--remove")
    assert code == 2 and "Read-only" in err
    code, _, err = run(
        capsys, "credentials", "ada.lovelace", "--provider", "fcm", "--add-token", "-"
    )
    assert code == 2 and "Read-only" in err
    # Refused before the secret was asked for.
    assert sys.stdin.read() == SENTINEL
    monkeypatch.delenv("INBOXDESK_READ_ONLY")
    monkeypatch.setenv("INBOXDESK_BASE_URL", "http://127.0.0.1:9")
    # Nothing listens there: a deadline of its own ends the retries' waits (about 3 s
    # by default), as a user may set it; what it proves is the failure, not the waits.
    monkeypatch.setenv("INBOXDESK_DEADLINE", "0.3")
    code, _, err = run(capsys, "set-subscriber", "grace.hopper", "--phone", "+14155550100")
    assert code == 1 and "127.0.0.1:9" in err


def test_the_service_gone_between_the_read_and_the_change(
    sub_env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The subscriber is read, then the service answers 503 to the change: it fails
    with the reason (the command line never queues), nothing changed, and the journal
    says so."""
    forward = loopback_client(base_url=sub_env.url)

    def gone_for_writes(request: httpx.Request) -> httpx.Response:
        if request.method != "GET":
            # Retry-After: 0, so that the client's retries of a 503 go at once (the
            # schedule is tests/client/test_faults.py's to prove).
            body = {"statusCode": 503, "message": "Service Unavailable"}
            return httpx.Response(503, json=body, headers={"Retry-After": "0"})
        answer = forward.get(request.url.raw_path.decode(), headers=request.headers)
        return httpx.Response(answer.status_code, content=answer.content, headers=answer.headers)

    with loopback(gone_for_writes) as url:
        monkeypatch.setenv("INBOXDESK_BASE_URL", url)
        code, _, err = run(capsys, "set-subscriber", "grace.hopper", "--phone", "+14155550100")
        assert code == 1 and "Service Unavailable" in err
        code, out, _ = run(capsys, "history", "--json")
        (entry,) = json.loads(out)["data"]
    forward.close()
    monkeypatch.setenv("INBOXDESK_BASE_URL", sub_env.url)
    assert _shown(capsys, "grace.hopper")["phone"] is None
    assert (entry["operation"], entry["outcome"]) == ("subscriber", "failed")
