"""The inbox's keys: ids let a keymap move them, tooltips feed the help and the palette."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from inboxdesk.tui.subscriber.keys import subscriber_key
from inboxdesk.tui.view_keys import view_keys

INBOX_BINDINGS: list[BindingType] = [
    Binding(
        "L",
        "toggle_follow",
        "Follow",
        id="inbox.follow",
        tooltip="Follow: refresh every 3 s (30 s once calm) with new messages on top "
        "(● live; ⏸ paused away from the top row), or back to the auto-refresh",
    ),
    Binding(
        "r",
        "mark_read",
        "Read",
        id="inbox.mark_read",
        tooltip="Mark the highlighted message (or the selection) read",
    ),
    Binding(
        "u",
        "mark_unread",
        "Unread",
        id="inbox.mark_unread",
        tooltip="Mark the highlighted message (or the selection) unread",
    ),
    Binding(
        "s",
        "mark_seen",
        "Seen",
        id="inbox.mark_seen",
        tooltip="Mark the highlighted message (or the selection) seen",
    ),
    Binding(
        "S",
        "mark_unseen",
        "Unseen",
        id="inbox.mark_unseen",
        tooltip="Mark the highlighted message (or the selection) unseen",
    ),
    Binding(
        "A",
        "mark_all_read",
        "All read",
        id="inbox.mark_all_read",
        tooltip="Mark every in-app message of this subscriber read (asks first)",
    ),
    Binding(
        "e",
        "archive",
        "Archive",
        id="inbox.archive",
        tooltip="Archive the highlighted message (or the selection); not on an older service",
    ),
    Binding(
        "E",
        "unarchive",
        "Unarchive",
        id="inbox.unarchive",
        show=False,
        tooltip="Take the highlighted message (or the selection) out of the archive",
    ),
    Binding(
        "x",
        "archive_all",
        "Archive all",
        id="inbox.archive_all",
        show=False,
        tooltip="Archive every message of this subscriber, every channel (asks first)",
    ),
    Binding(
        "X",
        "archive_all_read",
        "Archive all read",
        id="inbox.archive_all_read",
        show=False,
        tooltip="Archive every read message of this subscriber, every channel (asks first)",
    ),
    Binding(
        "b",
        "snooze",
        "Snooze",
        id="inbox.snooze",
        tooltip="Snooze the highlighted message (or the selection) until a time you choose",
    ),
    Binding(
        "B",
        "unsnooze",
        "Unsnooze",
        id="inbox.unsnooze",
        show=False,
        tooltip="End the snooze of the highlighted message (or the selection) now",
    ),
    Binding(
        "space",
        "toggle_select",
        "Select",
        id="inbox.toggle_select",
        tooltip="Add or remove the highlighted message from the selection",
    ),
    Binding(
        "asterisk",
        "select_all",
        "Select all",
        id="inbox.select_all",
        show=False,
        tooltip="Select every loaded message that the filter shows",
    ),
    Binding(
        "escape",
        "clear_selection",
        "Clear",
        id="inbox.clear_selection",
        tooltip="Empty the selection (or close the text filter)",
    ),
    Binding(
        "z",
        "undo",
        "Undo",
        id="inbox.undo",
        tooltip="Undo this session's writes here, newest first (again: the one before)",
    ),
    Binding(
        "o",
        "open_cta",
        "Open link",
        id="inbox.open_cta",
        tooltip="Open the highlighted message's call-to-action URL in the browser",
    ),
    Binding(
        "slash",
        "filter_text",
        "Filter",
        id="inbox.filter_text",
        tooltip="Show only loaded messages containing a text",
    ),
    Binding(
        "f",
        "next_filter",
        "Tab",
        id="inbox.next_filter",
        tooltip="Cycle the tabs: Inbox, Unread, Unseen, Archived, Snoozed, All",
    ),
    Binding(
        "p",
        "pick_subscriber",
        "Subscriber",
        id="inbox.pick_subscriber",
        tooltip="Open another subscriber's inbox",
    ),
    Binding(
        "c",
        "copy_id",
        "Copy id",
        id="inbox.copy_id",
        show=False,
        tooltip="Copy the highlighted message's id to the clipboard",
    ),
    Binding(
        "C",
        "copy_subscriber",
        "Copy subscriberId",
        id="inbox.copy_subscriber",
        show=False,
        tooltip="Copy this subscriber's id to the clipboard",
    ),
    Binding(
        "ctrl+r,f5",
        "refresh",
        "Refresh",
        id="inbox.refresh",
        tooltip="Load the subscriber, counts and the pages in view again",
    ),
    *view_keys("inbox"),
    subscriber_key("inbox"),
    Binding(
        "d",
        "delivery",
        "Delivery",
        id="inbox.delivery",
        tooltip="How the highlighted message's notification went on every channel",
    ),
]

# Finding: go to a message, range select, the search of every page.
FINDING_BINDINGS: list[BindingType] = [
    Binding(
        "ctrl+g",
        "go_to",
        "Go to",
        id="inbox.go_to",
        tooltip="Go to a message by its id or transactionId",
    ),
    Binding(
        "J",
        "extend_down",
        "Select down",
        id="inbox.extend_down",
        show=False,
        tooltip="Select the highlighted message and the one below, moving down",
    ),
    Binding(
        "K",
        "extend_up",
        "Select up",
        id="inbox.extend_up",
        show=False,
        tooltip="Select the highlighted message and the one above, moving up",
    ),
    Binding(
        "ctrl+f",
        "search_all",
        "Search all",
        id="inbox.search_all",
        show=False,
        tooltip="Search every page of the inbox for the filter's text",
    ),
]
