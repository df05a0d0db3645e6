"""The warning a large write carries: production sends the customer's webhook once per
message it changes. One rule for the app's confirmations and the command line."""

from __future__ import annotations

# Above this many messages a write names the webhooks it sets off.
WARN_OVER = 20


EVENTS = "read, seen, unread"


def webhook_warning(count: int, what: str = EVENTS, capped: bool = False) -> str:
    """The warning for a write of `count` messages (`capped`: at least that many), or ""
    for 20 or fewer. `what` names the webhooks' events."""
    if count <= WARN_OVER and not capped:
        return ""
    number = f"{count:,}+" if capped else f"{count:,}"
    return f"Production sends the customer's webhook once per message ({what}): {number} webhooks."


def webhook_warning_uncounted(what: str = EVENTS) -> str:
    """The warning for a write of more messages than were counted beforehand."""
    return (
        f"Production sends the customer's webhook once per message ({what}): "
        "one webhook per message."
    )
