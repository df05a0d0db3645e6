"""The outbox's events as Textual messages (decisions.md 1): the App posts one for each,
says what happened, and hands it on to the views through `ViewContext.writes`."""

from __future__ import annotations

from textual.message import Message

from inboxdesk.writes import Dropped as DroppedEvent
from inboxdesk.writes import Event, Write
from inboxdesk.writes import Failed as FailedEvent
from inboxdesk.writes import Partial as PartialEvent
from inboxdesk.writes import Queued as QueuedEvent
from inboxdesk.writes import Refused as RefusedEvent
from inboxdesk.writes import Sent as SentEvent


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


_KINDS: dict[type, type[WriteMessage]] = {
    SentEvent: Sent,
    PartialEvent: Partial,
    QueuedEvent: Queued,
    FailedEvent: Failed,
    DroppedEvent: Dropped,
    RefusedEvent: Refused,
}


def message_for(event: Event) -> WriteMessage:
    return _KINDS[type(event)](event)
