"""Environments on the command line with one key given alone (NOVU_SECRET_KEY) on a
service that lists every environment's integrations to any key, as older deployments
do: which environment each integration is in, and switches that act on another
environment only when it is named."""

from __future__ import annotations

import io
import json

import pytest

from tests.client.conftest import run
from tests.conftest import MAILGUN, OTHER_SMTP, POSTMARK, SENDGRID, STAGING_KEY, Service


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Script(io.StringIO):
    def isatty(self) -> bool:
        return False


@pytest.fixture
def env(org_wide_env: Service, monkeypatch: pytest.MonkeyPatch) -> Service:
    """The shared command-line set-up on an older deployment, with a script's stdin (not
    a terminal)."""
    monkeypatch.setattr("sys.stdin", Script(""))
    return org_wide_env


def is_primary(service: Service, integration: str) -> bool:
    row = service.row("SELECT is_primary FROM integrations WHERE id = ?", integration)
    return bool(row[0])


def test_environments_are_listed_with_the_keys_own(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "environments")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["NAME", "ID"]
    assert lines[0].split()[-2:] == ["KEY", "HELD"]
    assert lines[1].startswith("Staging") and lines[1].rstrip().endswith("current")
    assert lines[2].startswith("Other") and not lines[2].rstrip().endswith(("yes", "current"))
    code, out, _ = run(capsys, "environments", "--json")
    assert [e["name"] for e in json.loads(out)["data"]] == ["Staging", "Other"]


def test_integrations_name_their_environment_and_filter_by_it(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "integrations")
    rows = out.splitlines()[1:]
    assert code == 0 and len(rows) == 10
    # The key's own environment first, then the other one the service listed to it.
    assert all(r.startswith("Staging ") for r in rows[:8])
    assert all(r.startswith("Other") for r in rows[8:])
    code, out, _ = run(capsys, "integrations", "--environment", "staging", "--json")
    assert code == 0 and len(json.loads(out)["data"]) == 8
    # One key given alone acts in its own environment: another is refused, unsent.
    code, _, err = run(capsys, "integrations", "--environment", "Other")
    assert code == 2 and "NOVU_SECRET_KEY holds one key, Staging's, and no key for Other" in err
    assert "nothing was sent" in err and "config add-key" in err


def test_a_script_must_name_another_environment_to_switch_it(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    before = env.snapshot()
    code, out, err = run(capsys, "set-primary", "--yes", OTHER_SMTP.upper())
    assert code == 2 and out == ""
    assert "is in Other, not the key's own environment" in err and "--environment" in err
    code, _, err = run(capsys, "set-primary", "--environment", "Staging", OTHER_SMTP, "--yes")
    assert code == 2 and "is in Other, not in Staging: nothing was sent" in err
    assert env.snapshot() == before
    # Named, and still asked first: no terminal to ask, so --yes as well (decision 113).
    code, out, err = run(capsys, "set-primary", "--environment", "OTHER", OTHER_SMTP)
    assert code == 2 and "pass --yes" in err and env.snapshot() == before
    code, out, _ = run(capsys, "set-primary", "--environment", "OTHER", OTHER_SMTP, "--yes")
    assert code == 0
    assert out.splitlines() == [
        "SMTP (nodemailer) is now the primary email integration of Other.",
        "Postmark (postmark) is no longer primary (it stays active).",
    ]
    assert is_primary(env, OTHER_SMTP) and not is_primary(env, POSTMARK)
    assert is_primary(env, SENDGRID), "Staging's primary is untouched"


def test_a_terminal_asks_for_another_environments_name(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = env.snapshot()
    monkeypatch.setattr("sys.stdin", Terminal("y\n"))
    code, _, err = run(capsys, "set-primary", OTHER_SMTP)
    assert code == 1 and "Type the environment's name (Other)" in err
    assert "Other is not the API key's own environment." in err
    assert "It replaces Postmark (postmark), the current email primary of Other" in err
    assert env.snapshot() == before
    monkeypatch.setattr("sys.stdin", Terminal("other\n"))
    code, out, _ = run(capsys, "set-primary", OTHER_SMTP)
    assert code == 0 and "primary email integration of Other" in out
    assert is_primary(env, OTHER_SMTP)


def test_the_keys_own_environment_needs_no_name(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "set-primary", MAILGUN, "--yes")
    assert code == 0 and "of Staging" in out and is_primary(env, MAILGUN)


def test_without_environment_endpoints_the_key_is_placed_by_its_subscribers(
    make_service: object, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An older service without /v1/environments: ids stand in for names, and the key's
    environment comes from its first subscriber, so its own switch needs no name."""
    import httpx

    from tests.loopback import loopback

    service: Service = make_service(org_wide_integrations=True)  # type: ignore[operator]
    real = service.http(None)

    def older(request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/v1/environments"):
            return httpx.Response(404, json={"statusCode": 404, "message": "Cannot GET"})
        answer = real.request(
            request.method,
            request.url.raw_path.decode("ascii"),
            headers={k: v for k, v in request.headers.items() if k.lower() != "host"},
            content=request.content,
        )
        kept = {k: v for k, v in answer.headers.items() if k.lower() != "content-encoding"}
        return httpx.Response(answer.status_code, headers=kept, content=answer.content)

    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", "/nonexistent-config")
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    monkeypatch.setattr("sys.stdin", Script(""))
    with loopback(older) as url:
        monkeypatch.setenv("INBOXDESK_BASE_URL", url)
        code, out, _ = run(capsys, "set-primary", MAILGUN, "--yes")
        assert code == 0 and "of 65d000000000000000000002" in out
        code, _, err = run(capsys, "set-primary", OTHER_SMTP)
        assert code == 2 and "--environment" in err
