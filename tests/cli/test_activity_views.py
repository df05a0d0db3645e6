"""`inboxdesk activity --view NAME` runs a saved view after a restart, on a real profile
(a config file in a temp HOME, decision 121), in the view's environment with its key;
`--follow` streams what arrives, one line or one JSON line each."""

from __future__ import annotations

import asyncio
import json
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from inboxdesk.cli.activity_across import follow_feed
from inboxdesk.client import InboxClient
from inboxdesk.client.feed import FeedFilter
from inboxdesk.config.file import ConfigFile
from inboxdesk.core.views import make_view
from inboxdesk.server.store.activity import StagedNotification
from tests.client.conftest import run
from tests.command_line import ctrl_c_when, real_profile
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.feed_fixture import at, recent_feed_fixture


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, make_service: ServiceFactory) -> Service:
    """A real profile: the config file where the user's own lives, under a temp HOME."""
    service = make_service(recent_feed_fixture())
    real_profile(monkeypatch, tmp_path, service.url, STAGING_KEY)
    return service


def test_a_saved_view_runs_after_a_restart_in_its_environment(
    home: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    # The first connection files the key under its environment's _id.
    assert run(capsys, "activity", "--since", "1h", "--json")[0] == 0
    environments = ConfigFile.load().profiles()["real"]["environments"]
    ((env_id, held),) = environments.items()
    config = ConfigFile.load()
    view = make_view(
        "sms-failures",
        "activity",
        profile="real",
        environment_id=env_id,
        environment=held["name"],
        everyone=True,
        window="1h",
        channel="sms",
        failed=True,
        grouping="cause",
    )
    config.put_view(view.name, view.to_table())
    config.save()
    assert stat.S_IMODE(config.path.stat().st_mode) == 0o600
    assert "[views.sms-failures]" in config.path.read_text()

    # A restart: a new process reads the file anew; the view is every failed SMS of the
    # last hour, grouped by cause.
    code, out, err = run(capsys, "activity", "--view", "sms-failures")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1].split()[:6] == ["4", "provider", "error", "sms", "twilio", "21610"]
    assert lines[2].split()[:6] == ["2", "provider", "error", "sms", "twilio", "21211"]
    assert "in 3 groups, scanned 7 (all))" in err

    # A view of an environment the profile holds no key for says which; nothing is sent.
    elsewhere = make_view("prod", "activity", environment_id="env-prod", environment="Production")
    config = ConfigFile.load()
    config.put_view(elsewhere.name, elsewhere.to_table())
    config.save()
    code, out, err = run(capsys, "activity", "--view", "prod")
    assert code != 0 and out == ""
    assert "env-prod" in err and "nothing was sent" in err


def test_an_unknown_key_in_a_view_is_named_and_the_view_is_not_run(
    home: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    path = ConfigFile.load().path
    path.write_text(path.read_text() + '\n[views.typo]\nkind = "activity"\nchanel = "sms"\n')
    code, out, err = run(capsys, "activity", "--view", "typo")
    assert code == 2 and out == ""
    assert "unknown key 'chanel'" in err
    code, _, err = run(capsys, "activity", "--view", "missing")
    assert code == 2 and "no view 'missing'" in err


class _Stop(Exception):
    pass


def _stage_newer(service: Service) -> str:
    """A copy of the newest notification with a new id and transactionId, a minute
    newer than any, staged while the stream runs."""
    row = (
        service.store.read()
        .execute(
            "SELECT n.doc, j.doc FROM notifications AS n "
            "JOIN jobs AS j ON j.notification_id = n.id ORDER BY n.created_at DESC LIMIT 1"
        )
        .fetchone()
    )
    doc, job = json.loads(row[0]), json.loads(row[1])
    doc |= {
        "_id": "6a" + "0" * 22,
        "transactionId": "txn-live",
        "createdAt": at(-1, datetime.now(UTC)),
    }
    job |= {"_id": "6b" + "0" * 22}
    service.store.insert_notifications([StagedNotification(doc, [(job, [])])])
    return str(doc["_id"])


def test_follow_prints_what_arrives_meanwhile(
    make_service: ServiceFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    service = make_service(recent_feed_fixture())
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 1:
            capsys.readouterr()  # what was there before
            _stage_newer(service)
        elif len(waits) == 3:
            raise _Stop

    async def follow() -> None:
        async with InboxClient(service.url, STAGING_KEY) as client:
            await follow_feed(client, FeedFilter(), 2, as_json=True, sleep=sleep)

    with pytest.raises(_Stop):
        asyncio.run(follow())
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1, "the staged notification, once"
    assert json.loads(lines[0])["data"]["_id"] == "6a" + "0" * 22
    assert waits == [3.0, 3.0, 3.0]


def test_follow_ends_on_ctrl_c_with_exit_0(
    make_service: ServiceFactory,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The newest notifications as JSON lines, each flushed as it comes, then Ctrl-C ends
    it, 0."""
    service = make_service(recent_feed_fixture())
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", service.url)
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    args = ["activity", "--follow", "--json", "--limit", "2"]
    code, lines, err = ctrl_c_when(capsys, args, lambda lines: len(lines) >= 2)
    first = [json.loads(line) for line in lines[:2]]
    assert all(set(line) == {"data"} for line in first)
    assert code == 0, err
