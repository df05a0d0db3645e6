"""The rules the app and the command line share are stated once (snooze.py, webhooks.py,
models/inbox.py, text.py): here, the command line and those rules agree; the app's
side is driven in tests/tui (the snooze box, the confirmations)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from inboxdesk.core.inbox.plans import INBOX_ACTIONS
from inboxdesk.core.inbox.snooze import end_text, snooze_end
from inboxdesk.core.inbox.webhooks import WARN_OVER, webhook_warning
from inboxdesk.models.inbox import INBOX_WRITES, InboxAction
from inboxdesk.text import plural
from inboxdesk.timeinput import TimeInputError, local_now
from tests.client.conftest import run
from tests.conftest import Service, jane_message

UNKNOWN = "65f0000000000000000fffff"


@pytest.mark.parametrize("typed", ["30s", "2m", "364d", "366d", "99999d", "yesterday 9"])
def test_the_command_line_refuses_exactly_the_snooze_ends_the_app_refuses(
    env: Service, capsys: pytest.CaptureFixture[str], typed: str
) -> None:
    try:
        snooze_end(typed, local_now())
        refusal = None
    except TimeInputError as exc:
        refusal = str(exc)
    code, _, err = run(capsys, "snooze", "jane", UNKNOWN, "--until", typed)
    if refusal is None:
        assert code != 2, err  # sent: the unknown id is the service's to refuse
    else:
        # The same words, past the moment (which moves with the clock).
        assert code == 2 and refusal.split("; ")[-1] in err, err


def test_a_snooze_notice_names_the_year_only_when_it_is_not_this_one() -> None:
    now = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    assert end_text(now + timedelta(days=2), now) == "Sat 28 Nov 12:00 UTC"
    assert end_text(now + timedelta(days=40), now) == "Tue 05 Jan 2027 12:00 UTC"


def test_mark_as_over_20_ids_warns_of_the_webhooks_on_stderr_and_goes_on(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    unknown = [f"65f00000000000000000ff{n:02x}" for n in range(10)]
    ids = [jane_message(n) for n in range(1, 12)] + unknown
    assert len(ids) == WARN_OVER + 1
    code, out, err = run(capsys, "mark-as", "jane", "read", *ids, "--json")
    assert webhook_warning(len(ids)) in err and "21 webhooks" in err
    # Not asked: marked, with the unknown ids named as not updated.
    assert code == 3 and json.loads(out)["notUpdated"] == unknown
    assert env.row("SELECT read FROM messages WHERE id = ?", jane_message(11))[0] == 1
    code, _, err = run(capsys, "mark-as", "jane", "unread", *ids[:11])
    assert code == 0 and "webhook" not in err


def test_archive_over_20_ids_warns_of_the_webhooks_on_stderr_and_goes_on(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    """The app asks before archiving more than 20 messages (core/inbox/plans.py); the
    command line says it, as mark-as does, and archives."""
    unknown = [f"65f00000000000000000ff{n:02x}" for n in range(10)]
    ids = [jane_message(n) for n in range(1, 12)] + unknown
    code, _, err = run(capsys, "archive", "jane", *ids)
    assert webhook_warning(len(ids)) in err and code == 3
    doc = env.row("SELECT doc FROM messages WHERE id = ?", jane_message(11))[0]
    assert json.loads(doc).get("archived")
    code, _, err = run(capsys, "unarchive", "jane", *ids)
    assert code == 3 and "webhook" not in err


def test_an_inbox_action_and_its_inverse() -> None:
    for action in InboxAction:
        back = action.inverse
        if action is InboxAction.UNSNOOZE:
            assert back is None  # the earlier snooze's end is not known
        elif action is InboxAction.SNOOZE:
            assert back is InboxAction.UNSNOOZE
        else:
            assert back is not None and back.inverse is action
    # The app's keys for the v2 inbox are exactly the inbox writes.
    assert {InboxAction(a) for a in INBOX_ACTIONS} == INBOX_WRITES
    assert [a.done for a in (InboxAction.ARCHIVE, InboxAction.UNSNOOZE)] == [
        "Archived",
        "Unsnoozed",
    ]


def test_plural() -> None:
    assert [plural(1, "message"), plural(1_191, "message"), plural(2, "entry", "entries")] == [
        "1 message",
        "1,191 messages",
        "2 entries",
    ]
