"""The Subscriber view's topic subscriptions (decision 124): one row a subscription, its
topic and what each workflow needs to pass it, in words, under a heading that says a
subscription which filtered leaves no trace in the feed. Read with the subscriber; a
service that does not serve them (404 for a known subscriber) or fails says so in the
heading, and the rest of the view stands."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from inboxdesk.client import InboxdeskError, NotFoundError
from inboxdesk.core.delivery.topics import (
    NO_TRACE,
    contexts_words,
    rule_lines,
    subscription_name,
    topic_name,
)
from inboxdesk.text import plural, safe

if TYPE_CHECKING:
    from inboxdesk.client import InboxClient
    from inboxdesk.models.subscription import TopicSubscription

HEADING = "topics"
# Row keys of this part: the heading and one per subscription.
TOPIC_ROWS = (HEADING, "topic:")
FILTERED = "one that filtered a notification leaves no trace in the feed"


@dataclass(frozen=True)
class Subscriptions:
    """What was read: the subscriptions, or why there are none to show."""

    found: list[TopicSubscription] = field(default_factory=list)
    more: bool = False
    problem: str = ""

    def heading(self) -> str:
        if self.problem:
            return self.problem
        if not self.found:
            return "follows no topic"
        count = plural(len(self.found), "subscription")
        # Short, as a table cell; the row's line under the table says it whole.
        return f"{count}{' (the first only)' if self.more else ''} · {FILTERED}"

    def rows(self) -> list[tuple[str, str, str]]:
        """(key, label, words) of each row, every text made safe."""
        out = [(HEADING, "topic subscriptions", safe(self.heading(), newlines=False))]
        for n, one in enumerate(self.found):
            words = f"{subscription_name(one)} · {'; '.join(rule_lines(one))}"
            label = f"topic {safe(topic_name(one), newlines=False)}"
            out.append((f"topic:{n}", label, safe(words, newlines=False)))
        return out

    def said(self, key: str) -> str:
        """The line under the table for a row of this part: the whole of it."""
        if key == HEADING:
            return safe(self.problem or NO_TRACE, newlines=False)
        index = int(key.removeprefix("topic:"))
        if not 0 <= index < len(self.found):
            return ""
        one = self.found[index]
        parts = [
            f"{topic_name(one)}: subscription {subscription_name(one)} ({contexts_words(one)})",
            *rule_lines(one),
            NO_TRACE,
        ]
        return safe(" · ".join(parts), newlines=False)


async def read_subscriptions(client: InboxClient, subscriber_id: str) -> Subscriptions:
    """The subscriber's subscriptions; a problem in words where they cannot be read."""
    try:
        found, more = await client.all_subscriptions(subscriber_id)
    except NotFoundError:
        return Subscriptions(problem="not served by this service")
    except InboxdeskError as exc:
        return Subscriptions(problem=f"could not be read: {exc}")
    return Subscriptions(found, more)
