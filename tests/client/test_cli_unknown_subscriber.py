"""An unknown subscriber is said one way by every command that names one (unknown.py),
with exit 1: the activity feed, which answers an empty page, included."""

from __future__ import annotations

import pytest

from inboxdesk.cli import LAZY_COMMANDS, command_named
from tests.client.conftest import run
from tests.conftest import Service

NOBODY = "nobody-at-all"
SOME_ID = "6b0ac240419aba3ae5f85254"

# Each command that names a subscriber, given the unknown one.
ARGUMENTS = {
    "messages": [NOBODY],
    "counts": [NOBODY],
    "mark-as": [NOBODY, "read", SOME_ID],
    "mark-all": [NOBODY, "read", "--yes"],
    "archive": [NOBODY, SOME_ID],
    "unarchive": [NOBODY, SOME_ID],
    "snooze": [NOBODY, SOME_ID, "--until", "tomorrow 09:00"],
    "unsnooze": [NOBODY, SOME_ID],
    "archive-all": [NOBODY, "--yes"],
    "preferences": [NOBODY],
    "set-preference": [NOBODY, "--channel", "email", "--on"],
    "set-schedule": [NOBODY, "--off"],
    "activity": [NOBODY],
    "message": ["txn-none", "--subscriber", NOBODY],
    "delivery": ["txn-none", "--subscriber", NOBODY],
    "subscriber": [NOBODY],
    "set-subscriber": [NOBODY, "--locale", "en"],
    "credentials": [NOBODY, "--provider", "fcm", "--remove"],
    "subscriptions": [NOBODY],
    "resend": ["txn-none", "--subscriber", NOBODY, "--yes"],
}
# Not about one subscriber: the app's `--subscriber` opens the picker instead
# (tests/tui); `subscribers --subscriber-id` searches, and `history --subscriber` filters
# the journal, where finding nothing is an answer; `send` makes the subscriber it names,
# as production's trigger does.
NOT_A_COMMAND_LINE_ANSWER = {"tui", "demo", "subscribers", "history", "send"}


def _names_a_subscriber(name: str) -> bool:
    return any(p.name == "subscriber_id" for p in command_named(name).params)


def test_every_command_that_names_a_subscriber_is_checked_here() -> None:
    naming = {n for n in LAZY_COMMANDS if _names_a_subscriber(n)} - NOT_A_COMMAND_LINE_ANSWER
    assert naming == set(ARGUMENTS)


@pytest.mark.parametrize(
    "argv",
    [[name, *args] for name, args in ARGUMENTS.items()]
    + [["activity", NOBODY, "--failed"], ["activity", "jane-doe", "--failed", "--json"]],
    ids=lambda argv: " ".join(argv[:3]),
)
def test_an_unknown_subscriber_is_said_one_way_with_exit_1(
    env: Service, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    who = argv[argv.index("--subscriber") + 1] if "--subscriber" in argv else argv[1]
    assert code == 1, (out, err)
    assert f"inboxdesk: Subscriber '{who}' was not found in " in err
    assert "subscriberId, not a name" in err
    assert out == ""
