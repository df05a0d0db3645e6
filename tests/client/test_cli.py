"""The command line against the real local service, in-process."""

from __future__ import annotations

import io
import json
import socket
import stat
from pathlib import Path
from typing import Any

import httpx
import pytest

from inboxdesk.cli import main
from inboxdesk.server.fixtures import read_fixture
from tests.client.conftest import point_at, run
from tests.conftest import (
    EXAMPLE,
    JOE_MESSAGES,
    MAILGUN,
    SENDGRID,
    SES,
    STAGING_KEY,
    Service,
    ServiceFactory,
    jane_message,
)
from tests.loopback import loopback
from tests.production_shaped import production_shaped


def test_integrations_table_and_json(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "integrations")
    assert code == 0
    assert out.splitlines()[0].split() == [
        "ENVIRONMENT",
        "ID",
        "CHANNEL",
        "NAME",
        "PROVIDER",
        "IDENTIFIER",
        "ACTIVE",
        "PRIMARY",
        "CONDITIONS",
        "TRACKING",
    ]
    assert "SendGrid" in out and "PRIMARY" in out
    code, out, _ = run(capsys, "integrations", "--active", "--json")
    items = json.loads(out)["data"]
    assert code == 0 and len(items) == 7, "the key's environment's active ones"
    assert "secret-" not in out, "credentials are masked in JSON too"


def test_set_primary(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    before = env.snapshot()
    code, out, err = run(capsys, "set-primary", MAILGUN)  # no terminal to ask, no --yes
    assert code == 2 and out == "" and env.snapshot() == before
    (line,) = err.splitlines()
    assert "Make Mailgun (mailgun) the primary" in line and "pass --yes" in line
    code, out, _ = run(capsys, "set-primary", MAILGUN, "--yes")
    assert code == 0 and "Mailgun (mailgun) is now the primary email integration of Staging." in out
    assert env.row("SELECT is_primary FROM integrations WHERE id = ?", MAILGUN)[0] == 1
    code, _, err = run(capsys, "set-primary", "65e000000000000000000001", "--yes")
    assert code == 1 and "Channel in_app does not support primary" in err


def test_set_primary_lists_the_integrations_once_with_one_key(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key that found the integration is the one that switches it: what it listed
    is the listing the switch plans from, not asked for again."""
    seen: list[str] = []
    with production_shaped(env.url, seen=seen) as url:
        monkeypatch.setenv("INBOXDESK_BASE_URL", url)
        code, out, err = run(capsys, "set-primary", MAILGUN, "--yes")
    assert code == 0, err
    assert "is now the primary email integration of Staging" in out
    assert [p for p in seen if p.split("?")[0] == "/v1/integrations"] == ["/v1/integrations"]
    assert seen[-1] == f"/v1/integrations/{MAILGUN}/set-primary"


def test_subscribers_and_messages(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "subscribers", "--all", "--limit", "1")
    assert code == 0 and "jane" in out and "joe" in out
    code, out, err = run(capsys, "messages", "jane", "--limit", "3")
    assert (
        code == 0
        and len(out.splitlines()) == 4
        and "(3 shown; more on --page 1, or --all for every one; 8 unread, 6 unseen)" in err
    )
    code, out, _ = run(capsys, "messages", "jane", "--unread", "--all", "--json")
    assert code == 0 and len(json.loads(out)["data"]) == 8
    code, out, _ = run(capsys, "messages", "jane", "--unseen", "--all", "--json")
    assert all(not m["seen"] for m in json.loads(out)["data"]) and len(json.loads(out)["data"]) == 6


def test_mark_as_with_ids_from_stdin_and_a_partial_report(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{jane_message(1)}\n{JOE_MESSAGES[0]}\n"))
    code, out, err = run(capsys, "mark-as", "jane", "read", "-")
    assert code == 3
    assert "Marked 1 message read." in out and JOE_MESSAGES[0] in err
    assert env.row("SELECT read FROM messages WHERE id = ?", jane_message(1))[0] == 1
    code, out, _ = run(capsys, "mark-as", "jane", "unseen", jane_message(2), "--json")
    assert code == 0 and json.loads(out)["notUpdated"] == []


def test_mark_all(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    before = env.snapshot()
    code, out, err = run(capsys, "mark-all", "jane", "read")  # no terminal to ask, no --yes
    assert code == 2 and out == "" and "[y/N]" not in err
    (line,) = err.splitlines()
    assert "no terminal to ask" in line and "pass --yes" in line
    assert env.snapshot() == before
    code, out, _ = run(capsys, "mark-all", "jane", "read", "--yes")
    assert code == 0 and out.strip() == "Marked 8 messages read."


def test_errors_are_one_clear_message_and_non_zero(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(capsys, "messages", "ghost")
    assert code == 1 and "Subscriber 'ghost' was not found" in err
    monkeypatch.setenv("NOVU_SECRET_KEY", "not-the-key-0123456789")
    code, _, err = run(capsys, "integrations")
    assert code == 1 and "API Key not found" in err and "not-the-key" not in err
    monkeypatch.delenv("NOVU_SECRET_KEY")
    code, _, err = run(capsys, "integrations")
    assert code == 2 and "No API key" in err and "inboxdesk config init" in err
    code, _, err = run(capsys, "integrations", "--profile", "nope")
    assert code == 2 and "Unknown profile 'nope'" in err


def test_config_profiles_file_mode_and_masking(
    env: Service,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.delenv("NOVU_SECRET_KEY")
    monkeypatch.delenv("INBOXDESK_BASE_URL")
    monkeypatch.setattr("sys.stdin", io.StringIO(STAGING_KEY + "\n"))
    code, out, _ = run(
        capsys,
        "config",
        "add-profile",
        "local",
        "--base-url",
        env.url,
        "--api-key",
        "-",
        "--subscriber",
        "jane",
    )
    assert code == 0
    code, out, _ = run(capsys, "config", "path")
    path = Path(out.strip())
    assert path == tmp_path / "config" / "config.toml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    code, out, _ = run(capsys, "config", "show")
    assert STAGING_KEY not in out and "••••cdef" in out and "profile local" in out
    code, out, _ = run(capsys, "integrations")
    assert code == 0 and "SendGrid" in out
    code, out, _ = run(capsys, "config", "set", "timeout", "3")
    assert code == 0
    code, out, _ = run(capsys, "config", "show", "--json")
    shown = json.loads(out)["data"]
    assert shown["settings"]["timeout"] == "3.0" and shown["sources"]["timeout"] == "profile local"
    code, _, err = run(capsys, "config", "set", "timeout", "soon")
    assert code == 2 and "profiles.local.timeout=soon: not a number" in err
    code, out, _ = run(capsys, "config", "show", "--timeout", "7", "--json")
    assert json.loads(out)["data"]["sources"]["timeout"] == "flag"


def test_bare_options_open_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    from inboxdesk.cli import app_commands

    seen: list[Any] = []

    def run_tui(flags: dict[str, Any], subscriber: str | None) -> int:
        seen.append((flags["profile"], subscriber))
        return 0

    monkeypatch.setattr(app_commands, "run_tui", run_tui)
    assert main(["--profile", "work", "--subscriber", "ada"]) == 0
    assert seen[0] == ("work", "ada")
    assert main([]) == 0
    assert seen[1] == (None, None)
    assert main(["tui", "--profile", "eu"]) == 0 and seen[2] == ("eu", None)


def test_version_help_and_choices_from_the_enums(capsys: pytest.CaptureFixture[str]) -> None:
    from inboxdesk import __version__

    for flag in ("-V", "--version"):
        code, out, _ = run(capsys, flag)
        assert code == 0 and out.strip() == f"inboxdesk, version {__version__}"
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "mark-as" in out and "config" in out
    code, out, _ = run(capsys, "mark-as", "--help")
    assert code == 0 and "{read|seen|unread|unseen}" in out and "[us|eu|local]" in out
    code, _, err = run(capsys, "mark-all", "jane", "done")
    assert code == 2 and "'done' is not one of 'read', 'seen', 'unread', 'unseen'" in err
    code, out, _ = run(capsys, "integrations", "--help")
    assert "[in_app|email|sms|chat|push|tool]" in out


def test_integrations_by_channel(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "integrations", "--channel", "sms", "--json")
    assert code == 0 and {i["channel"] for i in json.loads(out)["data"]} == {"sms"}


def test_subscribers_search_the_service(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "subscribers", "--email", "joe@example.test")
    assert code == 0 and "joe" in out and "jane" not in out
    code, out, _ = run(capsys, "subscribers", "--name", "Jane", "--json")
    assert code == 0 and [s["subscriberId"] for s in json.loads(out)["data"]] == ["jane"]
    code, out, err = run(capsys, "subscribers", "--limit", "1")
    assert code == 0 and len(out.splitlines()) == 2
    cursor = err.split("--after ", 1)[1].rstrip(")\n")
    code, more, _ = run(capsys, "subscribers", "--limit", "1", "--after", cursor)
    assert code == 0 and more.splitlines()[1] != out.splitlines()[1]


def test_counts(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "counts", "jane")
    assert code == 0 and out.splitlines()[1].split() == ["8", "6"]
    code, out, _ = run(capsys, "counts", "jane", "--json")
    assert json.loads(out)["data"]["unread"] == {"count": 8, "capped": False, "shown": "8"}


class Terminal(io.StringIO):
    """Standard input that is a terminal, with the answers typed in advance."""

    def isatty(self) -> bool:
        return True


def test_set_primary_names_the_demoted_and_the_cleared_conditions(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "set-primary", MAILGUN, "--yes")
    assert code == 0
    assert out.splitlines() == [
        "Mailgun (mailgun) is now the primary email integration of Staging.",
        "SendGrid (sendgrid) is no longer primary (it stays active).",
        "Its 1 condition was cleared.",
    ]
    before = env.snapshot()
    code, out, _ = run(capsys, "set-primary", MAILGUN, "--yes")
    assert code == 0 and out.strip() == (
        "Mailgun (mailgun) is already the primary email integration of Staging."
    )
    assert env.snapshot() == before


def test_set_primary_asks_on_a_terminal_unless_yes(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = env.snapshot()
    monkeypatch.setattr("sys.stdin", Terminal("n\n"))
    code, out, err = run(capsys, "set-primary", MAILGUN)
    assert code == 1 and out == "" and "Nothing changed." in err
    assert "Make Mailgun (mailgun) the primary email integration of Staging?" in err
    assert "It replaces SendGrid (sendgrid), the current email primary of Staging" in err
    assert "Its 1 condition will be cleared." in err
    assert env.snapshot() == before
    monkeypatch.setattr("sys.stdin", Terminal("y\n"))
    code, out, _ = run(capsys, "set-primary", MAILGUN)
    assert code == 0 and "is now the primary" in out
    monkeypatch.setattr("sys.stdin", Terminal(""))
    code, out, err = run(capsys, "set-primary", "--yes", SENDGRID)
    assert code == 0 and "is now the primary" in out and "[y/N]" not in err


def test_json_keeps_the_wire_types(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "integrations", "--json")
    items = json.loads(out)["data"]
    assert code == 0 and all(type(i["active"]) is bool for i in items)
    assert all(isinstance(v, bool) for i in items for v in i.get("configurations", {}).values())


def test_a_5xx_shows_its_error_id(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    def failing(request: httpx.Request) -> httpx.Response:
        body = {"statusCode": 500, "message": "Internal server error", "errorId": "e-4711"}
        return httpx.Response(500, json=body)

    with loopback(failing) as url:
        code, _, err = run(capsys, "integrations", "--base-url", url)
    assert code == 1 and "(errorId e-4711)" in err


def test_dns_failure_gets_its_own_hint_and_production_no_local_one(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(capsys, "integrations", "--base-url", "http://no-such-host.invalid")
    assert code == 1 and "does not resolve" in err and "DNS" in err

    # Production's host, unresolvable as on a machine without DNS: the resolver's own
    # failure, not a live request to production.
    resolve = socket.getaddrinfo

    def no_dns(host: object, *args: Any, **kwargs: Any) -> Any:
        if host == "eu.api.novu.co":
            raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
        return resolve(host, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    monkeypatch.delenv("INBOXDESK_BASE_URL")
    code, _, err = run(capsys, "integrations", "--region", "eu")
    assert code == 1 and "eu.api.novu.co" in err and "serve" not in err


def test_tables_align_in_terminal_cells_and_show_controls() -> None:
    from inboxdesk.cli.tables import table
    from inboxdesk.text import cells

    text = table(
        ["NAME", "FLAG", "N"],
        [("漢字テスト😀", True, 3), ("plain", None, 10), ("\x1b[2Jx\u202e", False, 0)],
    )
    lines = text.splitlines()
    starts = {
        cells(line[: line.index(word)])
        for line, word in ((lines[0], "FLAG"), (lines[1], "true"), (lines[3], "false"))
    }
    assert len(starts) == 1, "the second column starts at the same cell on every row"
    assert "\x1b" not in text and "\u202e" not in text
    assert "␛[2Jx<U+202E>" in text and "true" in lines[1] and "false" in lines[3]
    long = table(["T"], [("W" * 500,)])
    assert cells(long.splitlines()[1]) == 60 and long.endswith("…")


def test_counts_past_the_cap_are_exact_as_the_app_shows_them(
    env: Service,
    make_service: Any,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.client.test_subscribers_counts import busy_fixture

    busy = make_service(fixture=busy_fixture(150))
    monkeypatch.setenv("INBOXDESK_BASE_URL", busy.url)

    def listed(flag: str) -> int:
        """The Inbox's messages not `flag`, counted by reading every page of the list."""
        query = {flag: "false", "archived": "false", "snoozed": "false", "limit": 100}
        total, offset = 0, 0
        with busy.http() as http:
            while True:
                page = http.get(
                    "/v2/subscribers/jane/notifications", params={**query, "offset": offset}
                ).json()
                total, offset = total + len(page["data"]), offset + 100
                if not page["hasMore"]:
                    return total

    unread, unseen = listed("read"), listed("seen")
    assert unread >= 100 and unseen >= 100
    code, out, _ = run(capsys, "counts", "jane")
    assert code == 0 and out.splitlines()[1].split() == [str(unread), str(unseen)]
    code, out, _ = run(capsys, "counts", "jane", "--json")
    assert json.loads(out)["data"]["unseen"] == {
        "count": unseen,
        "capped": False,
        "shown": str(unseen),
    }
    code, _, err = run(capsys, "messages", "jane", "--limit", "1")
    assert code == 0 and f"{unread} unread, {unseen} unseen)" in err and "99+" not in err


def test_command_line_writes_are_journaled_and_never_queued(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    from inboxdesk.paths import writes_path
    from inboxdesk.writes import Where, WriteStore

    code, _, _ = run(capsys, "mark-as", "jane", "read", jane_message(1))
    assert code == 0
    code, _, _ = run(capsys, "mark-all", "jane", "seen", "--yes")
    assert code == 0
    path = writes_path()
    assert path.is_relative_to(os.environ["INBOXDESK_DATA_DIR"])
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    store = WriteStore(path)
    journal = store.entries(Where.of(None, env.url))
    assert [(e.outcome, e.write.kind.value) for e in journal] == [
        ("sent", "mark-all"),
        ("sent", "mark"),
    ]
    assert journal[1].detail["after"] == {jane_message(1): [True, True]}
    assert store.held(Where.of(None, env.url), "") == 0, "nothing in the queue at all"


def test_set_primary_says_it_activates_an_inactive_integration(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = env.snapshot()
    monkeypatch.setattr("sys.stdin", Terminal("n\n"))
    code, out, err = run(capsys, "set-primary", SES)
    assert code == 1 and out == "" and env.snapshot() == before
    question = "Make Amazon SES (ses) the primary email integration of Staging and activate it?"
    assert question in err, err
    assert "Amazon SES (ses) is inactive and will be activated." in err
    monkeypatch.setattr("sys.stdin", Terminal("y\n"))
    code, out, _ = run(capsys, "set-primary", SES)
    assert code == 0 and "Amazon SES (ses) was activated." in out.splitlines(), out
    assert env.row("SELECT active FROM integrations WHERE id = ?", SES)[0] == 1
    # A script (--yes, or no terminal) is told in the result alone; an active one is not.
    code, out, _ = run(capsys, "set-primary", "--yes", MAILGUN)
    assert code == 0 and "activated" not in out


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (("--archived", "--snoozed"), "--archived and --snoozed"),
        (("--snoozed", "--all-states"), "--snoozed and --all-states"),
        (("--archived", "--all-states"), "--archived and --all-states"),
    ],
)
def test_message_states_are_mutually_exclusive(
    env: Service, capsys: pytest.CaptureFixture[str], flags: tuple[str, ...], named: str
) -> None:
    code, out, err = run(capsys, "messages", "jane", *flags)
    assert code == 2 and out == ""
    assert f"{named} cannot be used together" in err


def test_mark_as_counts_what_changed_from_what_it_last_saw(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    # Never seen before: unknown, so marked.
    code, out, _ = run(capsys, "mark-as", "jane", "read", jane_message(1))
    assert code == 0 and out.strip() == "Marked 1 message read."
    code, out, _ = run(capsys, "mark-as", "jane", "read", jane_message(1))
    assert code == 0 and out.strip() == "1 message was already read; nothing changed."
    run(capsys, "mark-as", "jane", "unread", jane_message(2))
    code, out, _ = run(capsys, "mark-as", "jane", "read", jane_message(1), jane_message(2))
    assert code == 0 and out.strip() == "Marked 1 message read; 1 was already."


PAGERDUTY = "65e000000000000000000021"


def test_integrations_of_the_tool_channel(
    make_service: ServiceFactory,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = read_fixture(EXAMPLE)
    fixture["environments"][0]["integrations"].append(
        {
            "_id": PAGERDUTY,
            "name": "PagerDuty",
            "identifier": "pagerduty-1",
            "providerId": "pagerduty",
            "channel": "tool",
            "credentials": {"apiKey": "pd-secret-0123456789abcdef"},
            "active": True,
        }
    )
    service = point_at(monkeypatch, tmp_path, make_service(fixture))
    code, out, _ = run(capsys, "integrations", "--channel", "tool", "--json")
    assert code == 0
    assert [(i["_id"], i["channel"]) for i in json.loads(out)["data"]] == [(PAGERDUTY, "tool")]
    code, out, _ = run(capsys, "integrations", "--channel", "tool")
    assert code == 0 and "PagerDuty" in out and "tool" in out and "SendGrid" not in out
    with service.http() as http:
        response = http.post(f"/v1/integrations/{PAGERDUTY}/set-primary")
    assert response.status_code == 400
    assert response.json()["message"] == "Channel tool does not support primary"


def test_messages_shows_its_rows_when_only_the_counts_fail(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    real = env.http(None)

    def counts_refused(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/notifications/count"):
            return httpx.Response(400, json={"statusCode": 400, "message": "Counts are off"})
        answer = real.request(
            request.method,
            request.url.raw_path.decode("ascii"),
            headers={k: v for k, v in request.headers.items() if k.lower() != "host"},
        )
        kept = {k: v for k, v in answer.headers.items() if k.lower() != "content-encoding"}
        return httpx.Response(answer.status_code, headers=kept, content=answer.content)

    with loopback(counts_refused) as url:
        code, out, err = run(capsys, "messages", "jane", "--base-url", url)
    assert code == 0 and len(out.splitlines()) > 1, "the rows, whatever the counts"
    assert "the counts failed: Counts are off" in err
