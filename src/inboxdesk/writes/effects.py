"""What each mark does to a message's read and seen flags, and how to put them back.

The one statement of the rule: the local service's store is checked against it in
tests, and the app predicts rows and builds undos from it.
"""

from __future__ import annotations

from collections.abc import Mapping

from inboxdesk.models import MarkAs

# (read, seen) of one in-app message.
Flags = tuple[bool, bool]


def after_mark(mark_as: MarkAs | str, before: Flags) -> Flags:
    """Read and seen after `mark_as`: read and unread also set seen, as the service does."""
    read, _ = before
    return {
        MarkAs.READ: (True, True),
        MarkAs.UNREAD: (False, True),
        MarkAs.SEEN: (read, True),
        MarkAs.UNSEEN: (read, False),
    }[MarkAs(mark_as)]


def restore_steps(
    before: Mapping[str, Flags], now: Mapping[str, Flags]
) -> list[tuple[MarkAs, list[str]]]:
    """The mark-as calls that put each message of `before` back to that state from `now`
    (an id missing from `now` is taken as unchanged).

    Read flags first: read and unread both set seen, so seen flags go back after.
    """
    steps: list[tuple[MarkAs, list[str]]] = []
    current = {i: now.get(i, flags) for i, flags in before.items()}
    to_read = [i for i, (read, _) in before.items() if read and not current[i][0]]
    to_unread = [i for i, (read, _) in before.items() if not read and current[i][0]]
    for mark, ids in ((MarkAs.READ, to_read), (MarkAs.UNREAD, to_unread)):
        if ids:
            steps.append((mark, ids))
            for i in ids:
                current[i] = after_mark(mark, current[i])
    to_seen = [i for i, (_, seen) in before.items() if seen and not current[i][1]]
    to_unseen = [i for i, (_, seen) in before.items() if not seen and current[i][1]]
    for mark, ids in ((MarkAs.SEEN, to_seen), (MarkAs.UNSEEN, to_unseen)):
        if ids:
            steps.append((mark, ids))
    return steps
