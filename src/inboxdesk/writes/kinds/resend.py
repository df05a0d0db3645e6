"""A resend: a notification's workflow triggered again for its subscriber (core/delivery/resend.py
plans it). The step's ids are the new transactionId (made before the first try) and the
original's; `payload` and `trigger` carry the rest of the body, as sent. Journalled
first, never queued, never undone."""

from __future__ import annotations

from typing import Any

from inboxdesk.writes.kinds.send import Send
from inboxdesk.writes.model import Kind, Write


class Resend(Send):
    kind = Kind.RESEND
    done = "Resent"

    def extra(self, write: Write) -> dict[str, Any]:
        return {"extra": write.trigger}

    def describe(self, write: Write) -> str:
        step = write.steps[0]
        return f"resend {step.action} to {write.target} ({step.ids[0]}, again of {step.ids[-1]})"

    def origin(self, write: Write) -> list[tuple[str, str]]:
        return [("resent from", write.steps[0].ids[-1])]
