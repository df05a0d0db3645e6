"""Search the whole listing for a text, page by page, beyond the pages the list holds:
a progress bar, "searched N of M", Esc to stop, and every match reachable."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, ProgressBar, Static
from textual.widgets.option_list import Option
from textual.worker import Worker

from inboxdesk.client import InboxdeskError
from inboxdesk.client.limits import Walk
from inboxdesk.core.inbox.feed import PAGE_SIZE, Row, matches
from inboxdesk.text import clip, safe
from inboxdesk.tui.list_keys import LIST_BINDINGS

# One page of the listing: its rows, and whether more follow.
FetchPage = Callable[[int], Awaitable[tuple[list[Row], bool]]]


class Matches(OptionList):
    """The matches; j and k move as the arrows do, as in every list (list_keys.py)."""

    BINDINGS: ClassVar[list[BindingType]] = [*LIST_BINDINGS[:2]]


class SearchScreen(ModalScreen[tuple[int, Row] | None]):
    """Answers the chosen match and its index in the listing."""

    BINDINGS = [
        Binding("escape", "cancel", "Stop / close", id="search.cancel", tooltip="Stop, or close"),
    ]

    def __init__(self, text: str, fetch: FetchPage, pages: int | None, max_pages: int) -> None:
        """`pages`: how many pages the listing has, when known."""
        super().__init__()
        self.text = text
        self.fetch = fetch
        self.pages = pages
        self.max_pages = max_pages
        self.found: list[tuple[int, Row]] = []
        self.searched = 0
        self._search: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="search"):
            yield Static(Text(f"Messages containing “{clip(self.text, 40)}”, in every page"))
            yield ProgressBar(total=self.pages, show_eta=False, id="search-progress")
            yield Static("", id="search-said")
            yield Matches(id="search-found")

    def on_mount(self) -> None:
        self._search = self.run_search()

    def _say(self, state: str = "") -> None:
        of = f" of {self.pages:,}" if self.pages is not None else ""
        said = f"searched {self.searched:,}{of} pages · {len(self.found):,} found"
        self.query_one("#search-said", Static).update(Text(f"{said}{state}"))

    @work(exclusive=True, group="search", exit_on_error=False)
    async def run_search(self) -> None:
        needle = self.text.casefold()
        options = self.query_one(OptionList)
        bar = self.query_one(ProgressBar)
        self._say()
        try:
            walk = Walk(self.max_pages, "the inbox")
            for number in itertools.count():
                rows, more = await self.fetch(number)
                for pos, row in enumerate(rows):
                    if matches(row, needle):
                        index = number * PAGE_SIZE + pos
                        self.found.append((index, row))
                        label = f"#{index + 1:,}  {clip(row.heading or '(no title)', 50)}"
                        options.add_option(Option(Text(label), id=str(len(self.found) - 1)))
                self.searched = number + 1
                bar.update(progress=self.searched)
                self._say()
                if not more or not rows:
                    bar.update(total=self.searched, progress=self.searched)
                    self._say(" · done; Enter opens one")
                    return
                walk.onward(row.id for row in rows)
        except InboxdeskError as exc:
            self._say(f" · stopped: {safe(exc.message, newlines=False)}")
        finally:
            if self.found and options.highlighted is None:
                options.highlighted = 0
                options.focus()

    @on(OptionList.OptionSelected, "#search-found")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.found[int(event.option.id or 0)])

    def action_cancel(self) -> None:
        if self._search is not None and self._search.is_running:
            self._search.cancel()
            self._say(" · stopped")
            return
        self.dismiss(None)
