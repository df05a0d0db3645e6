"""Go to a message by its id or transactionId: a prompt that runs the lookup
(lookup.py) and says how far it got, then hands the inbox where to open it; a key no
in-app message has opens the timeline of the notification it names."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, ProgressBar, Static
from textual.worker import Worker

from inboxdesk.client import InboxdeskError
from inboxdesk.core.delivery import finding
from inboxdesk.core.inbox.lookup import find
from inboxdesk.models import Message
from inboxdesk.text import clip, safe
from inboxdesk.tui.context import ViewContext
from inboxdesk.tui.screens.shown_again import ShownAgain

# Where a message stands in one tab's listing (None: not shown there), told of progress.
Locate = Callable[[str, str, Callable[[int, int | None], None]], Awaitable[int | None]]


@dataclass(frozen=True)
class GoTo:
    """Where to open a found message: its subscriber's inbox on `tab`, at `index` (None:
    no list shows it, so the detail pane shows it alone)."""

    message: Message
    subscriber_id: str | None
    tab: str | None
    index: int | None


class GoToScreen(ModalScreen[GoTo | None], ShownAgain):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="goto.cancel", tooltip="Stop, or close"),
    ]

    def __init__(
        self, context: ViewContext, subscriber_id: str, tabs: Sequence[tuple[str, Locate]]
    ) -> None:
        """`tabs`: the inbox's tabs that may show the message, in the order to try
        (the current one first), each with how to find a message's row in it."""
        super().__init__()
        self.context = context
        self.client = context.client
        self.subscriber_id = subscriber_id
        self.tabs = list(tabs)
        self._search: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="goto"):
            yield Static("Go to a message: type its id or its transactionId, then Enter.")
            yield Input(placeholder="message id or transactionId", id="goto-input")
            yield Static("", id="goto-said")
            yield ProgressBar(id="goto-progress", show_eta=False)

    def on_mount(self) -> None:
        self.query_one(ProgressBar).display = False
        self.query_one(Input).focus()

    def _say(self, text: str) -> None:
        self.query_one("#goto-said", Static).update(Text(text))

    def _progress(self, searched: int, pages: int | None) -> None:
        bar = self.query_one(ProgressBar)
        bar.display = True
        bar.update(total=pages, progress=searched)
        of = f" of {pages:,}" if pages is not None else ""
        self._say(f"Looking for that id: searched {searched:,}{of} pages… (Esc stops)")

    @on(Input.Submitted, "#goto-input")
    def _submitted(self, event: Input.Submitted) -> None:
        key = event.value.strip()
        if key:
            self._say("Looking…")
            self._search = self.look(key)

    @work(exclusive=True, group="goto", exit_on_error=False)
    async def look(self, key: str) -> None:
        try:
            found = await find(self.client, key, self.subscriber_id, True, self._progress)
        except InboxdeskError as exc:
            self._done(safe(exc.message, newlines=False))
            return
        if found is None:
            await self._notification(key)
            return
        message = found.messages[0]
        owner = message.subscriber.subscriber_id if message.subscriber else None
        tab: str | None = None
        index: int | None = None
        if owner is not None:
            self._say("Found: finding its place in the list…")
            for name, locate in self.tabs:
                try:
                    index = await locate(owner, message.id or "", self._progress)
                except InboxdeskError:
                    index = None  # past the page bound: the pane shows it alone
                if index is not None:
                    tab = name
                    break
        self.dismiss(GoTo(message, owner, tab, index))

    async def _notification(self, key: str) -> None:
        """No in-app message has it: the notification it names, in its timeline (a ticket
        about an email or an SMS names one that has no in-app message)."""
        from inboxdesk.tui.activity.timeline import show_timeline

        self._say("No in-app message has it: looking for its notification…")
        try:
            found = await finding.find(self.client, key)
        except InboxdeskError as exc:
            self._done(safe(exc.message, newlines=False))
            return
        if not found:
            self._done(f"No message or notification has the id or transactionId {clip(key, 60)}.")
            return
        self.dismiss(None)
        show_timeline(self.app, self.context, found[0])

    def _done(self, said: str) -> None:
        self.query_one(ProgressBar).display = False
        self._say(said)
        self._search = None

    def action_cancel(self) -> None:
        if self._search is not None and self._search.is_running:
            self._search.cancel()
            self._done("Stopped.")
            return
        self.dismiss(None)
