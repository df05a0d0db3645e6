"""The timeline of one notification: the cause in words on top, then each job in order
with its execution details (time, status, source, detail) and the provider's `raw`
answer as highlighted JSON with secrets masked. All of it is untrusted text: it goes
through `safe()` into `Text`, never markup. `open_delivery` finds a notification by
transactionId (or id) and opens its timeline: `d` on an inbox message, `ctrl+g` here."""

from __future__ import annotations

from typing import ClassVar

from rich.highlighter import JSONHighlighter
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from inboxdesk.client import InboxClient, activity
from inboxdesk.delivery import glyph, job_cause, notification_cause, shown_raw
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.text import clip, safe
from inboxdesk.tui.context import ViewContext
from inboxdesk.tui.widgets.app_footer import AppFooter
from inboxdesk.tui.widgets.app_header import AppHeader

STATUS_STYLE = {
    "Success": "green",
    "Failed": "bold red",
    "Warning": "yellow",
    "Pending": "cyan",
    "Queued": "cyan",
}
GLYPH_STYLE = {"✓": "green", "✗": "bold red", "⊘": "yellow", "…": "cyan", "⤵": "blue"}
# The most of one `raw` answer shown; the rest is said to be cut.
RAW_CHARS = 4000


def when(value: str | None) -> str:
    """A time as the timeline shows it: the date and the time to the second."""
    return safe((value or "")[:19].replace("T", " "), newlines=False)


def render(notification: ActivityNotification) -> Text:
    """The whole timeline as one Text: quick to build and to draw (one widget)."""
    found = notification_cause(notification)
    out = Text()
    out.append("Cause: ", style="bold")
    out.append(safe(found.words, newlines=False), style="bold red" if found.failed else "bold")
    out.append("\n")
    who = notification.subscriber
    facts = [
        ("workflow", notification.workflow_name),
        ("subscriber", who.subscriber_id if who else "(deleted subscriber)"),
        ("transaction", notification.transaction_id),
        ("notification", notification.id),
        ("created", when(notification.created_at)),
    ]
    for name, value in facts:
        out.append(f"{name:>12}  ", style="dim")
        out.append(safe(value, newlines=False))
        out.append("\n")
    workflow = notification.template.name if notification.template else ""
    highlight = JSONHighlighter()
    for job in notification.jobs:
        cause = job_cause(job, workflow)
        mark = glyph(cause)
        out.append("\n")
        out.append(f"{mark} ", style=GLYPH_STYLE.get(mark, ""))
        out.append(safe(job.name, newlines=False), style="bold")
        out.append(f"  {safe(job.type, newlines=False)} · {safe(job.status, newlines=False)}")
        if job.provider_id:
            out.append(f" · {safe(job.provider_id, newlines=False)}", style="dim")
        out.append("\n  ")
        out.append(safe(cause.words, newlines=False), style="italic")
        out.append("\n")
        if not job.execution_details:
            out.append("  (no execution details)\n", style="dim")
        for detail in job.execution_details:
            status = safe(detail.status, newlines=False)
            out.append(f"  {when(detail.created_at)[11:]:8}  ", style="dim")
            out.append(f"{status:<9}", style=STATUS_STYLE.get(str(detail.status), ""))
            out.append(f" {safe(detail.source or '', newlines=False):<11} ", style="dim")
            out.append(safe(detail.detail, newlines=False))
            if detail.is_retry:
                out.append(" (retry)", style="dim")
            out.append("\n")
            if detail.raw:
                raw = shown_raw(detail.raw)
                cut = len(raw) > RAW_CHARS
                block = Text(safe(raw[:RAW_CHARS]))
                highlight.highlight(block)
                block.pad_left(6)
                for line in block.split("\n"):
                    out.append(Text("      ") + line)
                    out.append("\n")
                if cut:
                    out.append(f"      … {len(raw) - RAW_CHARS:,} more characters\n", style="dim")
    return out


class TimelineScreen(Screen[None]):
    """One notification's delivery; shown at once from what the list holds, then read
    again from the service (its jobs may have moved on)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape,backspace",
            "close",
            "Back",
            id="timeline.close",
            tooltip="Back to the list",
        ),
        Binding("ctrl+r,f5", "refresh", "Refresh", id="timeline.refresh", tooltip="Read it again"),
    ]

    def __init__(self, client: InboxClient, notification: ActivityNotification) -> None:
        super().__init__(id="timeline")
        self.client = client
        self.notification = notification

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with VerticalScroll(id="timeline-scroll"):
            yield Static(render(self.notification), id="timeline-body")
        yield AppFooter()

    def on_mount(self) -> None:
        self.sub_title = f"Delivery of {self.notification.workflow_name}"
        self.query_one("#timeline-scroll").focus()
        self.reload()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_refresh(self) -> None:
        self.reload()

    @work(exclusive=True, group="timeline", exit_on_error=False)
    async def reload(self) -> None:
        fresh = await activity.notification(self.client, self.notification.id)
        self.notification = fresh
        self.query_one("#timeline-body", Static).update(render(fresh))


def open_delivery(
    view: Screen[None], context: ViewContext, subscriber_id: str | None, transaction_id: str | None
) -> None:
    """The timeline of the notification `transaction_id` names for the subscriber (the
    first, if it names several); a notice when it names none."""
    if not transaction_id:
        view.notify("This message names no transactionId to find its delivery by.")
        return

    async def find() -> None:
        found = await activity.find(context.client, transaction_id, subscriber_id)
        if not found:
            view.notify(
                f"No notification has the id or transactionId {clip(transaction_id, 60)}.",
                severity="warning",
                markup=False,
            )
            return
        view.app.push_screen(TimelineScreen(context.client, found[0]))

    view.run_worker(find(), group="delivery", exclusive=True, exit_on_error=False)
