"""The inbox's tabs and the listing each reads: one rule for the app's tabs and the
command line's `messages` flags."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from inboxdesk.client.source import VISIBLE
from inboxdesk.models.inbox import InboxNotification

if TYPE_CHECKING:
    from inboxdesk.client.source import Abilities
    from inboxdesk.models import Message

# What the subscriber's own Inbox shows (VISIBLE), or the states a listing may ask for
# instead (`None`: the Inbox's).
STATES: dict[str | None, dict[str, bool]] = {
    None: VISIBLE,
    "archived": {"archived": True},
    "snoozed": {"snoozed": True},
    "all": {},
}


def listing_query(
    state: str | None = None, unread: bool = False, unseen: bool = False
) -> dict[str, bool]:
    """The v2 list's filters: the messages in `state` (None: the Inbox's), unread and
    unseen ones only when asked."""
    query = dict(STATES[state])
    if unread:
        query["read"] = False
    if unseen:
        query["seen"] = False
    return query


class InboxTab(StrEnum):
    """The inbox's tabs; Inbox is what the subscriber's own Inbox shows."""

    INBOX = "inbox"
    UNREAD = "unread"
    UNSEEN = "unseen"
    ARCHIVED = "archived"
    SNOOZED = "snoozed"
    ALL = "all"

    @property
    def label(self) -> str:
        return self.value.capitalize()

    @property
    def query(self) -> dict[str, bool]:
        """The v2 list's filters for this tab."""
        return {
            InboxTab.INBOX: listing_query(),
            InboxTab.UNREAD: listing_query(unread=True),
            InboxTab.UNSEEN: listing_query(unseen=True),
            InboxTab.ARCHIVED: listing_query("archived"),
            InboxTab.SNOOZED: listing_query("snoozed"),
        }.get(self, listing_query("all"))

    def shows_state(self, read: bool, seen: bool, archived: bool, snoozed: bool) -> bool:
        """Whether this tab lists a message in that state (as the service filters)."""
        state = {"archived": archived, "snoozed": snoozed, "read": read, "seen": seen}
        return all(state[name] == wanted for name, wanted in self.query.items())

    def shows(self, item: Message | InboxNotification) -> bool:
        """Whether this tab lists the item in its state now (as the service filters)."""
        if isinstance(item, InboxNotification):
            state = {
                "archived": item.is_archived,
                "snoozed": item.is_snoozed,
                "read": item.is_read,
                "seen": item.is_seen,
            }
        else:
            state = {"archived": False, "snoozed": False, "read": item.read, "seen": item.seen}
        return all(state[name] == wanted for name, wanted in self.query.items())


def tabs_of(abilities: Abilities) -> tuple[InboxTab, ...]:
    """The tabs a source can list (an older service's feed: no Archived or Snoozed)."""
    return tuple(tab for tab in InboxTab if abilities.can_list(tab.query))
