"""Subscriber-data writes through the outbox: fields and credentials, journalled with
before and after, undone, queued while the service is away, refused in read-only; and
a sentinel token that History, its JSON and the CSV never show whole."""

from __future__ import annotations

import json
import stat
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from inboxdesk.client import ClientOptions, InboxClient, RetryPolicy
from inboxdesk.writes import (
    Failed,
    Kind,
    Outbox,
    Queued,
    Refused,
    Sent,
    Where,
    Write,
    WriteStore,
    describe,
)
from inboxdesk.writes.kinds.credentials import credentials_write, removal_write
from inboxdesk.writes.kinds.subscriber import subscriber_write, values_of
from inboxdesk.writes.report import as_json, to_csv
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.subscriber_fixture import FCM_NEW, SENTINEL, subscriber_fixture

HERE = Where("work", "127.0.0.1", "env-1")


@dataclass
class Gate(httpx.AsyncBaseTransport):
    down: bool = False
    inner: httpx.AsyncBaseTransport = field(default_factory=httpx.AsyncHTTPTransport)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            raise httpx.ConnectError("connection refused", request=request)
        return await self.inner.handle_async_request(request)


def _client(service: Service, gate: Gate | None = None) -> InboxClient:
    options = ClientOptions(timeout=5, retry=RetryPolicy(attempts=1, base=0.01, deadline=5))
    return InboxClient(service.url, STAGING_KEY, options, gate)


async def test_a_field_change_is_undone_and_made_again(make_service: ServiceFactory) -> None:
    service = make_service(subscriber_fixture())
    store = WriteStore(None)
    async with _client(service) as client:
        outbox = Outbox(client, HERE, store)
        grace = await client.get_subscriber("grace.hopper")
        write = subscriber_write("grace.hopper", {"phone": "+14155550100"}, values_of(grace))
        event = await outbox.submit(write)
        assert isinstance(event, Sent)
        assert (await client.get_subscriber("grace.hopper")).phone == "+14155550100"
        entry = store.entries(HERE)[0]
        assert entry.write.kind is Kind.SUBSCRIBER
        assert describe(entry.write) == "grace.hopper: phone (none) → '+14155550100'"
        row = as_json(entry)
        assert (row["before"], row["after"]) == ({"phone": None}, {"phone": "+14155550100"})
        # Undone from History (never the inbox's z): the phone is cleared again.
        assert outbox.last("grace.hopper") is None
        undone = await outbox.undo(entry.write)
        assert isinstance(undone, Sent) and undone.write.undoes == entry.write.id
        assert (await client.get_subscriber("grace.hopper")).phone is None
        again = await outbox.submit(
            subscriber_write("grace.hopper", {"phone": "+14155550199"}, {"phone": None})
        )
        assert isinstance(again, Sent)
        assert (await client.get_subscriber("grace.hopper")).phone == "+14155550199"
        # A refusal of the service fails the write, with its words, and is journalled.
        bad = await outbox.submit(subscriber_write("grace.hopper", {"email": "x@y"}, {}))
        assert isinstance(bad, Failed) and "email must be an email" in bad.error.message
        unknown = subscriber_write("grace.hopper", {"phone": "+1"}, None)
        assert "unknown" in (outbox.refusal(unknown) or "")


async def test_a_field_change_waits_while_the_service_is_away(
    make_service: ServiceFactory,
) -> None:
    service = make_service(subscriber_fixture())
    gate = Gate()
    async with _client(service, gate) as client:
        outbox = Outbox(client, HERE, WriteStore(None))
        gate.down = True
        event = await outbox.submit(
            subscriber_write("ada.lovelace", {"timezone": "America/New_York"}, {"timezone": "x"})
        )
        assert isinstance(event, Queued)
        gate.down = False
        sent = await outbox.flush()
        assert [type(e) for e in sent] == [Sent]
        assert (await client.get_subscriber("ada.lovelace")).timezone == "America/New_York"
        outbox.read_only = True
        refused = await outbox.submit(subscriber_write("ada.lovelace", {"phone": "+1"}, {}))
        assert isinstance(refused, Failed) and "Read-only" in refused.error.message
        assert (await client.get_subscriber("ada.lovelace")).phone == "+15005550004"


async def test_a_token_is_added_removed_and_the_removal_undone_never_shown_whole(
    make_service: ServiceFactory, tmp_path: Path
) -> None:
    service = make_service(subscriber_fixture())
    path = tmp_path / "writes.db"
    store = WriteStore(path)
    async with _client(service) as client:
        outbox = Outbox(client, HERE, store)

        async def fcm() -> list[str]:
            ada = await client.get_subscriber("ada.lovelace")
            entry = next(c for c in ada.channels or [] if c.provider_id == "fcm")
            return list(entry.credentials.device_tokens or [])

        ada = await client.get_subscriber("ada.lovelace")
        added = credentials_write(ada, "fcm", "add-token", SENTINEL)
        assert not isinstance(added, str)
        assert isinstance(await outbox.submit(added), Sent)
        assert await fcm() == ["tok-a1", "tok-a2", SENTINEL]
        ada = await client.get_subscriber("ada.lovelace")
        assert credentials_write(ada, "fcm", "add-token", SENTINEL) == (
            "That token (••••5b81) is already saved for fcm."
        )
        removed = credentials_write(ada, "fcm", "remove-token", "tok-a1")
        assert not isinstance(removed, str)
        assert isinstance(await outbox.submit(removed), Sent)
        # The other tokens were sent whole: nothing else was wiped.
        assert await fcm() == ["tok-a2", SENTINEL]
        ada = await client.get_subscriber("ada.lovelace")
        gone = removal_write(ada, "fcm")
        assert not isinstance(gone, str)
        assert isinstance(await outbox.submit(gone), Sent)
        ada = await client.get_subscriber("ada.lovelace")
        assert [c.provider_id for c in ada.channels or []] == ["slack"]
        # The removal undone: restored under the newest active fcm integration, named.
        undone = await outbox.undo(gone)
        assert isinstance(undone, Sent)
        assert await fcm() == ["tok-a2", SENTINEL]
        assert undone.result.values is not None
        assert undone.result.values["integration"] == FCM_NEW
        assert undone.result.values["integrationName"] == "FCM main"
        assert "newest active fcm integration" in describe(undone.write)
        # The token's removal undone: tok-a1 back, beside the others.
        assert isinstance(await outbox.undo(removed), Sent)
        assert await fcm() == ["tok-a1", "tok-a2", SENTINEL]

        entries = store.entries(HERE)
        shown = json.dumps([as_json(e) for e in entries]) + to_csv(entries)
        shown += "".join(describe(e.write) for e in entries)
        assert SENTINEL not in shown and "tok-a1" not in shown
        assert "5b81" in shown  # masked, not left out: the agent can tell tokens apart
        # The 0600 journal keeps it raw, to undo, and for nothing else.
        assert SENTINEL.encode() in b"".join(
            p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("writes.db")
        )
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        # The request log (copy as curl) keeps no raw token either.
        assert not any(SENTINEL.encode() in r.body for r in client.requests.entries)


async def test_undo_says_what_a_first_entry_leaves_and_refuses_two_integrations(
    make_service: ServiceFactory,
) -> None:
    store = WriteStore(None)
    service = make_service(subscriber_fixture())
    async with _client(service) as client:
        outbox = Outbox(client, HERE, store)
        subscriber = await client.get_subscriber("grace.hopper")
        first = credentials_write(subscriber, "fcm", "add-token", "tok-g1")
        assert not isinstance(first, str)
        assert isinstance(await outbox.submit(first), Sent)
        undone = await outbox.undo(first)
        assert isinstance(undone, Sent)
        assert "an empty fcm entry remains" in describe(undone.write)
        after = await client.get_subscriber("grace.hopper")
        assert [(c.provider_id, c.credentials.device_tokens) for c in after.channels or []] == [
            ("fcm", [])
        ]
    # Entries under two integrations of one provider: no change and no undo by one PUT.
    two = subscriber_fixture()
    two["environments"][0]["subscribers"][0]["channels"].append(
        {
            "providerId": "fcm",
            "_integrationId": "65f000000000000000000010",
            "credentials": {"deviceTokens": ["old"]},
        }
    )
    service = make_service(two)
    async with _client(service) as client:
        outbox = Outbox(client, HERE, WriteStore(None))
        ada = await client.get_subscriber("ada.lovelace")
        refused = credentials_write(ada, "fcm", "add-token", "tok-x")
        assert isinstance(refused, str) and "2 integrations" in refused
        gone = removal_write(ada, "fcm")
        assert not isinstance(gone, str)
        assert isinstance(await outbox.submit(gone), Sent)
        no = await outbox.undo(gone)
        assert isinstance(no, Refused) and "more than one integration" in no.reason


def test_a_crash_never_writes_a_token_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A crash file holds the exception's own traceback; and even the traceback Textual
    prints with local values shows a credentials write masked."""
    import io
    import traceback

    from rich.console import Console
    from rich.traceback import Traceback

    from inboxdesk.cli.crash import report

    monkeypatch.setenv("INBOXDESK_LOG_DIR", str(tmp_path / "logs"))
    write = Write(
        Kind.CREDENTIALS,
        "ada.lovelace",
        (),
        label="add token ••••5b81 to fcm of ada.lovelace",
        change={"provider": "fcm", "what": "add-token", "tokens": [SENTINEL], "before": []},
    )
    try:
        raise RuntimeError(f"a bug while sending {describe(write)}")
    except RuntimeError as exc:
        error = exc
    shown = io.StringIO()
    Console(file=shown, width=200).print(
        Traceback.from_exception(type(error), error, error.__traceback__, show_locals=True)
    )
    assert "write" in shown.getvalue() and SENTINEL not in shown.getvalue()
    assert SENTINEL not in repr(write)
    report("".join(traceback.format_exception(error)), "the app")
    (crash,) = (tmp_path / "logs").iterdir()
    assert "a bug while sending" in crash.read_text() and SENTINEL not in crash.read_text()
    assert SENTINEL not in capsys.readouterr().err


async def test_undo_names_later_changes_of_the_same_subscriber_s_data(
    make_service: ServiceFactory,
) -> None:
    service = make_service(subscriber_fixture())
    store = WriteStore(None)
    async with _client(service) as client:
        outbox = Outbox(client, HERE, store)
        first = subscriber_write("grace.hopper", {"phone": "+14155550100"}, {"phone": None})
        await outbox.submit(first)
        await outbox.submit(
            subscriber_write("ada.lovelace", {"phone": "+14155550111"}, {"phone": "x"})
        )
        entry = store.entry(first.id)
        assert entry is not None
        assert outbox.undo_notes(entry) == []  # another subscriber's change is no concern
        second = subscriber_write(
            "grace.hopper", {"phone": "+14155550122"}, {"phone": "+14155550100"}
        )
        await outbox.submit(second)
        (note,) = outbox.undo_notes(entry)
        assert note.startswith("1 later write touched the same subscriber's data since")
