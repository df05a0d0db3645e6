"""Every command fails (exit 1) on an API error; answers that do not match the question
are not trusted; odd counts are shown as sent, marked."""

from __future__ import annotations

import pytest

from inboxdesk.paths import writes_path
from inboxdesk.writes import Where, WriteStore
from tests.client.conftest import run
from tests.client.hostile_server import (
    API_FAULTS,
    HostileServer,
    Reply,
    counting,
    environment,
    json_reply,
    routed,
    switched_elsewhere,
)

KEY = "errors-key-0123456789abcdef"


@pytest.fixture
def pointed(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> pytest.MonkeyPatch:
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", f"{tmp_path}/config")
    monkeypatch.setenv("NOVU_SECRET_KEY", KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    return monkeypatch


@pytest.mark.parametrize("fault", list(API_FAULTS))
def test_environments_fails_on_any_api_error(
    pointed: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fault: str
) -> None:
    with HostileServer(lambda _: API_FAULTS[fault]) as server:
        pointed.setenv("INBOXDESK_BASE_URL", server.url)
        code, out, err = run(capsys, "environments")
    assert code == 1, (fault, out, err)
    assert out == "" and err.startswith("inboxdesk: ")


def test_an_environment_listed_twice_is_marked_the_keys_once(
    pointed: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    dev = environment("e1", "Dev")
    answer = routed(
        {
            ("GET", "/v1/environments"): json_reply({"data": [dev, dev]}),
            ("GET", "/v1/environments/me"): json_reply({"data": dev}),
        }
    )
    with HostileServer(answer) as server:
        pointed.setenv("INBOXDESK_BASE_URL", server.url)
        code, out, err = run(capsys, "environments")
    assert code == 0, err
    assert [line.split()[-1] for line in out.splitlines()[1:]].count("current") == 1
    assert "listed e1 more than once" in err


@pytest.mark.parametrize(("answered", "env"), [("i-x", "e1"), ("i-a", "e2")])
def test_set_primary_refuses_an_answer_about_another_integration_or_environment(
    pointed: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], answered: str, env: str
) -> None:
    with HostileServer(switched_elsewhere(answered, env)) as server:
        pointed.setenv("INBOXDESK_BASE_URL", server.url)
        code, out, err = run(capsys, "set-primary", "i-a", "--yes")
        where = Where.of(None, server.url, "e1")
    assert code == 1 and "not the one asked for" in err, (out, err)
    # A 2xx was answered: the switch may have been made. Unknown, never "nothing changed".
    assert "Unknown whether" in err and "Nothing changed" not in err, err
    store = WriteStore(writes_path())
    [entry] = store.entries(where)
    assert entry.outcome == "failed"
    store.close()


@pytest.mark.parametrize(
    ("unread", "unseen", "shown"),
    [(-3, 2.5, ["-3 ?", "2.5 ?"]), (4.0, 150, ["4", "99+"])],
)
def test_odd_counts_are_shown_as_sent_and_marked(
    pointed: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    unread: float,
    unseen: float,
    shown: list[str],
) -> None:
    with HostileServer(counting(unread, unseen)) as server:
        pointed.setenv("INBOXDESK_BASE_URL", server.url)
        code, out, err = run(capsys, "counts", "jane")
    assert code == 0, err
    cells = out.splitlines()[-1].split()
    assert [c for c in cells if c != "?"] == [s.removesuffix(" ?") for s in shown]
    assert cells.count("?") == sum(s.endswith("?") for s in shown)


@pytest.mark.parametrize("count", ["5", True, None, [1]])
def test_a_count_that_is_not_a_number_is_a_protocol_error(
    pointed: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], count: object
) -> None:
    with HostileServer(counting(count, 1)) as server:
        pointed.setenv("INBOXDESK_BASE_URL", server.url)
        code, out, err = run(capsys, "counts", "jane")
    assert code == 1 and out == "", err


@pytest.mark.parametrize("status", [429, 503])
def test_the_command_line_never_queues_a_write(
    pointed: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], status: int
) -> None:
    busy = Reply(status, b"{}", {"Retry-After": "0"})  # retried at once, then given up
    answer = routed({("POST", "/v1/subscribers/jane/messages/mark-as"): busy})
    with HostileServer(answer) as server:
        pointed.setenv("INBOXDESK_BASE_URL", server.url)
        code, _, err = run(capsys, "mark-as", "jane", "read", "m1")
        where = Where.of(None, server.url)
        tried = server.paths("/v1/subscribers/jane/messages/mark-as")
    assert code == 1 and tried, err
    store = WriteStore(writes_path())
    assert store.held(where, "") == 0, "nothing left in the queue"
    [entry] = store.entries(where)
    assert entry.outcome == "failed" and entry.detail["status"] == status
    store.close()


def test_a_404_names_a_missing_route_beside_a_wrong_id(
    pointed: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An older service answers a route it lacks with 404, as it answers a wrong id: the
    status cannot tell them apart, so the hint names both, with the route."""
    answer = routed(
        {("GET", "/v1/integrations"): json_reply({"statusCode": 404, "message": "Cannot GET"}, 404)}
    )
    with HostileServer(answer) as server:
        pointed.setenv("INBOXDESK_BASE_URL", server.url)
        code, _, err = run(capsys, "integrations")
    assert code == 1 and "older one without /v1/integrations" in err, err
