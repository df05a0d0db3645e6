"""The outbox's events as Textual messages (decisions.md 1): the App posts one for each,
says what happened, and hands it on to the views through `ViewContext.writes`."""

from __future__ import annotations

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


# By the event's name, which each message shares: the events themselves load with the
# outbox, after the first frame.
_KINDS: dict[str, type[WriteMessage]] = {
    kind.__name__: kind for kind in (Sent, Partial, Queued, Failed, Dropped, Refused)
}


def message_for(event: Event) -> WriteMessage:
    return _KINDS[type(event).__name__](event)
