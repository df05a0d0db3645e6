"""Every write kind is one registered object that answers everything the outbox, History,
the notices and the command line ask of it, and the names the queue and the journal
store never change."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from inboxdesk.client.errors import InboxdeskError
from inboxdesk.writes import Failed, Flags, Kind, Queued, Result, Sent, Step, Write
from inboxdesk.writes.kinds import KINDS, describe, kind_of
from inboxdesk.writes.kinds.base import Section, WriteKind
from inboxdesk.writes.kinds.preference import Toggle, preference_write
from inboxdesk.writes.kinds.schedule import schedule_write
from inboxdesk.writes.kinds.subscriber import subscriber_write

# The names users' queues and journals hold: renaming one would orphan their entries.
STORED = {
    "mark",
    "mark-all",
    "set-primary",
    "inbox",
    "preference",
    "archive-all",
    "send",
    "subscriber",
    "credentials",
    "credentials-removed",
    "resend",
    "cancel",
    "schedule",
}
# What every kind answers: the interface the outbox, History, notices and history ask.
ASKED = (
    "client",
    "perform",
    "after",
    "remembered",
    "refusal",
    "inverse",
    "overlaps",
    "undo_notes",
    "done_note",
    "messages_changed",
    "describe",
    "notice",
    "failure_notice",
    "what",
    "before_after",
    "section",
)
ENTRY = {"integration": "int-1", "credentials": {"deviceTokens": ["token-1"]}}
SAMPLES = {
    Kind.MARK: Write(Kind.MARK, "ada", (Step("read", ("m1",)),), before={"m1": (False, False)}),
    Kind.MARK_ALL: Write(Kind.MARK_ALL, "ada", (Step("read"),), before={"m1": (False, False)}),
    Kind.SET_PRIMARY: Write(
        Kind.SET_PRIMARY, "int-2", (), label="Mailer", previous=(("int-1", "Old"),)
    ),
    Kind.INBOX: Write(Kind.INBOX, "ada", (Step("archive", ("n1",)),)),
    Kind.PREFERENCE: preference_write("ada", Toggle("email", False, "wf", "Welcome"), (True, True)),
    Kind.ARCHIVE_ALL: Write(Kind.ARCHIVE_ALL, "ada", (Step("archive"),)),
    Kind.SEND: Write(Kind.SEND, "ada", (Step("welcome", ("tx-1",)),), payload={}),
    Kind.SUBSCRIBER: subscriber_write("ada", {"phone": "+15550100"}, {"phone": None}),
    Kind.CREDENTIALS: Write(
        Kind.CREDENTIALS,
        "ada",
        (),
        label="add token tok… to fcm of ada",
        change={"provider": "fcm", "what": "add-token", "tokens": ["t"], "other": {}, "before": []},
    ),
    Kind.CREDENTIALS_REMOVED: Write(
        Kind.CREDENTIALS_REMOVED,
        "ada",
        (),
        label="remove the fcm credentials of ada",
        change={"provider": "fcm", "before": [ENTRY]},
    ),
    Kind.RESEND: Write(Kind.RESEND, "ada", (Step("welcome", ("tx-2", "tx-1")),), trigger={}),
    Kind.CANCEL: Write(Kind.CANCEL, "tx-1", (Step("cancel", ("n1",)),)),
    Kind.SCHEDULE: schedule_write("ada", {"isEnabled": True}, None),
}


class Answered:
    """Nothing answered yet: what an undo sees of a write of another session."""

    def flags_after(self, write: Write) -> dict[str, Flags]:
        return {}

    def values_after(self, write: Write) -> dict[str, Any]:
        return {}

    def count_of(self, write: Write) -> int | float | None:
        return None


def test_every_stored_name_has_one_registered_kind_under_the_same_name() -> None:
    assert {k.value for k in Kind} == STORED
    assert set(KINDS) == set(Kind)
    for name, kind in KINDS.items():
        assert kind.kind is name
        assert sum(k is kind for k in KINDS.values()) == 1


@pytest.mark.parametrize("name", list(Kind), ids=str)
def test_each_kind_provides_every_method(name: Kind) -> None:
    kind = KINDS[name]
    assert isinstance(kind, WriteKind)
    assert not inspect.isabstract(type(kind)), type(kind).__abstractmethods__
    for method in ASKED:
        assert callable(getattr(kind, method)), method
    assert inspect.iscoroutinefunction(kind.perform)


@pytest.mark.parametrize("name", list(Kind), ids=str)
def test_each_kind_answers_what_it_is_asked(name: Kind) -> None:
    write = SAMPLES[name]
    kind = kind_of(write)
    stored = Write.from_json(write.to_json())
    assert stored.kind is name and kind_of(stored) is kind  # a journal entry keeps its kind
    assert describe(write) == kind.describe(write) and describe(write).strip()
    assert isinstance(kind.section(write, None, None, {}), Section)
    before, after = kind.before_after(write, {})
    assert before is None or isinstance(before, dict | list)
    assert after is None or isinstance(after, dict)
    said = kind.notice(Sent(write, Result()))
    assert said is None or (said[0].strip() and said[1] in ("information", "warning"))
    failed = kind.failure_notice(Failed(write, InboxdeskError("refused")))
    assert failed is None or failed[1] == "error"
    assert isinstance(kind.undo_notes(write), list)
    assert kind.overlaps(write, write, kind)  # a write touches what it touches
    refused = kind.refusal(write, Answered())
    back = kind.inverse(write, Answered(), {})
    if refused is None:
        # Its undo is a new write of a registered kind that names what it undoes.
        assert isinstance(back, Write) and back.undoes == write.id
        assert kind_of(back).describe(back).strip()
    else:
        assert isinstance(refused, str) and refused.strip()
        assert kind.final is None or back == kind.final
    assert kind.queued or not kind.undone_by_z or name is Kind.ARCHIVE_ALL
    assert Queued(write, 0).write is write
