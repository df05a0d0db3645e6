"""The inbox's keys: ids let a keymap move them, tooltips feed the help and the palette."""

from __future__ import annotations

from textual.binding import Binding, BindingType

INBOX_BINDINGS: list[BindingType] = [
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
    Binding("z", "undo", "Undo", id="inbox.undo", tooltip="Undo the last mark-as"),
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
        "All/Unread/Unseen",
        id="inbox.next_filter",
        tooltip="Cycle the filter tabs: all, unread, unseen",
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
    Binding(
        "2",
        "app.show_integrations",
        "Integrations",
        id="inbox.integrations",
        tooltip="Switch to the integrations view",
    ),
]
