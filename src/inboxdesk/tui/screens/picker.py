"""Choose a subscriber: search the service's list, or type a subscriberId."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from inboxdesk.client import InboxClient, InboxdeskError, NotFoundError
from inboxdesk.core.inbox.unknown import unknown_subscriber
from inboxdesk.models import Subscriber
from inboxdesk.text import clip, safe
from inboxdesk.tui.screens.shown_again import ShownAgain

MAX_PAGES = 20


class SubscriberPicker(ModalScreen[str | None], ShownAgain):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="picker.cancel"),
        Binding("down", "focus_list", "List", show=False, id="picker.list"),
    ]

    def __init__(self, client: InboxClient, known: list[Subscriber]) -> None:
        super().__init__()
        self.client = client
        self.subscribers = list(known)
        # The subscribers the list shows, in its order.
        self._listed: list[Subscriber] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            yield Static(
                "Open a subscriber's inbox: type to search, or type a subscriberId "
                "and press Enter.",
                id="picker-help",
            )
            yield Input(placeholder="name, email or subscriberId", id="picker-input")
            yield Static("", id="picker-said")
            yield OptionList(id="picker-list")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._show("")
        self.load()

    @work(exclusive=True, group="picker")
    async def load(self) -> None:
        found: list[Subscriber] = []
        after: str | None = None
        try:
            for _ in range(MAX_PAGES):
                result = await self.client.search_subscribers(limit=100, after=after)
                found += result.data
                after = result.next
                if not after or not result.data:
                    break
        except InboxdeskError as exc:
            self.notify(safe(str(exc)), severity="error", markup=False)
            return
        if self not in self.app.screen_stack:
            return  # closed while the list came: its widgets may be half removed
        self.subscribers = found
        self._show(self.query_one(Input).value)

    def _show(self, needle: str) -> None:
        options = self.query_one(OptionList)
        needle = needle.casefold().strip()
        matching = [
            s
            for s in self.subscribers
            if needle in f"{s.display_name}  {s.email or ''}  ({s.subscriber_id})".casefold()
        ]
        if matching != self._listed:
            # Listed again only when what matches changed (a key typed, or the load's
            # fresher names and emails): each list is laid out.
            self._listed = matching
            options.clear_options()
            for s in matching:
                # A Text, not a str: OptionList parses markup in a str prompt.
                shown = Text(f"{clip(s.display_name, 40)}  {clip(s.email or '', 32)}  ")
                shown.append(f"({clip(s.subscriber_id, 40)})", style="dim")
                options.add_option(Option(shown, id=s.subscriber_id))
        if options.option_count:
            options.highlighted = 0

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self._say("")
        self._show(event.value)

    def _say(self, text: str) -> None:
        said = self.query_one("#picker-said", Static)
        if not text and not said.display:
            return  # nothing said, nothing to clear: no layout for each key typed
        said.update(Text(text))  # a Text: the id typed is shown, never parsed as markup
        said.display = bool(text)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        options = self.query_one(OptionList)
        typed = event.value.strip()
        exact = any(s.subscriber_id == typed for s in self.subscribers)
        if options.highlighted is not None and not exact:
            option = options.get_option_at_index(options.highlighted)
            self.dismiss(option.id)
        elif exact:
            self.dismiss(typed)
        elif typed:
            # Not in the list: asked first, so that a mistyped id keeps the inbox open now.
            self._say("Looking for that subscriber…")
            self.check(typed)

    @work(exclusive=True, group="picker-check", exit_on_error=False)
    async def check(self, subscriber_id: str) -> None:
        try:
            await self.client.get_subscriber(subscriber_id)
        except NotFoundError:
            self._say(unknown_subscriber(subscriber_id))
            return
        except InboxdeskError as exc:
            self._say(safe(str(exc), newlines=False))
            return
        self.dismiss(subscriber_id)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_focus_list(self) -> None:
        self.query_one(OptionList).focus()
