"""The outbox's events as Textual messages (decisions.md 1): the App posts one for each,
says what happened, and hands it on to the views through `ViewContext.writes`."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from inboxdesk.writes import Event, Write


class WriteMessage(Message, namespace="write"):
    def __init__(self, event: Event) -> None:
        super().__init__()
        self.event = event

    @property
    def write(self) -> Write:
        return self.event.write


class Sent(WriteMessage, namespace="write"):
    pass


class Partial(WriteMessage, namespace="write"):
    pass


class Queued(WriteMessage, namespace="write"):
    pass


class Failed(WriteMessage, namespace="write"):
    pass


class Dropped(WriteMessage, namespace="write"):
    pass


class Refused(WriteMessage, namespace="write"):
    pass


@functools.cache
def _kinds() -> dict[type, type[WriteMessage]]:
    # The events load with the outbox, after the first frame: no write comes before.
    from inboxdesk.writes import events

    return {
        events.Sent: Sent,
        events.Partial: Partial,
        events.Queued: Queued,
        events.Failed: Failed,
        events.Dropped: Dropped,
        events.Refused: Refused,
    }


def message_for(event: Event) -> WriteMessage:
    return _kinds()[type(event)](event)
