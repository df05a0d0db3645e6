"""The session's request log (from the History view, `l`): method, path, status and time
of each request, newest first; `c` copies one as a curl command with the key left as
`$NOVU_SECRET_KEY`."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from inboxdesk.client.request_log import LoggedRequest, as_curl
from inboxdesk.text import clip
from inboxdesk.tui.clipboard import copy
from inboxdesk.tui.widgets.keyed_table import KeyedTable


def status_text(request: LoggedRequest) -> Text:
    if request.status is None:
        return Text(request.error or "no answer", style="bold red")
    style = "green" if request.status < 400 else "bold red" if request.status >= 500 else "yellow"
    return Text(str(request.status), style=style)


class RequestLogScreen(ModalScreen[None]):
    BINDINGS = [
        Binding(
            "c",
            "copy_curl",
            "Copy as curl",
            id="requests.copy_curl",
            tooltip="Copy the highlighted request as a curl command (key as a variable)",
        ),
        Binding("escape,l,q", "close", "Close", id="requests.close", tooltip="Back"),
    ]

    def __init__(self, requests: list[LoggedRequest]) -> None:
        super().__init__()
        self.requests = requests

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(
                Text(f"This session's requests ({len(self.requests)}, newest first)", style="bold")
            )
            yield KeyedTable(id="requests")
            yield Static("c copies the highlighted one as curl · esc closes", id="detail")

    def on_mount(self) -> None:
        table = self.query_one(KeyedTable)
        table.cursor_type = "row"
        # The path, the longest, last: status and time stay in view at 80 columns.
        for label in ("At", "Status", "ms", "Method", "Path"):
            table.add_column(label)
        for number, request in enumerate(self.requests):
            path = request.url.split("://", 1)[-1].partition("/")[2]
            table.add_row(
                request.at.astimezone().strftime("%H:%M:%S"),
                status_text(request),
                f"{request.seconds * 1000:.0f}",
                request.method,
                Text(clip("/" + path, 70)),
                key=str(number),
            )
        table.focus()

    def action_copy_curl(self) -> None:
        key = self.query_one(KeyedTable).cursor_key
        if key is not None:
            copy(self.app, as_curl(self.requests[int(key)]), "the request as curl")

    def action_close(self) -> None:
        self.dismiss(None)
