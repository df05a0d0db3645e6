"""The timeline of one notification: the cause in words on top, then each job in order
with its execution details (time, status, source, detail) and the provider's `raw`
answer as highlighted JSON with secrets masked. All of it is untrusted text: it goes
through `safe()` into `Text`, never markup. `open_delivery` finds a notification by
transactionId (or id) and opens its timeline: `d` on an inbox message, `ctrl+g` here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.highlighter import JSONHighlighter
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.geometry import Size
from textual.reactive import var
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip

from inboxdesk.client import InboxdeskError
from inboxdesk.core.delivery import finding
from inboxdesk.core.delivery.advice_shown import advice_of
from inboxdesk.core.delivery.follow_notification import (
    Ending,
    Follow,
    follow,
    tracked_of,
    tracked_providers,
)
from inboxdesk.core.delivery.resend import cancel_question, cancel_write, cancellable, plan
from inboxdesk.core.delivery.topics import topic_words
from inboxdesk.core.delivery.tracking import reporter_words, untracked_note
from inboxdesk.core.preferences import preference_when
from inboxdesk.delivery import (
    Cause,
    glyph,
    job_causes,
    notification_cause,
    preference_behind,
    shown_raw,
)
from inboxdesk.models import Integration
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.text import cells, clip, safe
from inboxdesk.tui.context import ViewContext
from inboxdesk.tui.messages import OpenPreferences
from inboxdesk.tui.screens.confirm import ConfirmScreen
from inboxdesk.tui.screens.shown_again import ShownAgain
from inboxdesk.tui.subscriber.keys import subscriber_key
from inboxdesk.tui.view_keys import view_keys
from inboxdesk.tui.widgets.app_footer import AppFooter
from inboxdesk.tui.widgets.app_header import AppHeader
from inboxdesk.wrapping import wrap
from inboxdesk.writes import Event, Kind, Sent, Write

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


# One line of the timeline: runs of (text, style), every text already made safe; a
# line of a provider's JSON answer is highlighted when drawn (JSON_LINE as its style).
Line = list[tuple[str, str]]
JSON_LINE = "json"


# Under a preference's cause, on a notification with a context (decision 125).
CONTEXT_DECIDED = (
    "  decided by this context's preferences where your organization has context "
    "preferences on, else by the no-context ones: 5 shows both"
)


def lines(
    notification: ActivityNotification, integrations: Sequence[Integration] = ()
) -> list[Line]:
    """The whole timeline as lines of plain runs: no Rich objects are made here, only
    for the lines drawn, so a long timeline costs little more to open than a short one.
    `integrations`: the environment's, to say which sent a job without tracking."""
    found = notification_cause(notification)
    out: list[Line] = [
        [
            ("Cause: ", "bold"),
            (safe(found.words, newlines=False), "bold red" if found.failed else "bold"),
        ]
    ]
    who = notification.subscriber
    facts = [
        ("workflow", notification.workflow_name),
        ("subscriber", who.subscriber_id if who else "(deleted subscriber)"),
        ("transaction", notification.transaction_id),
        ("notification", notification.id),
        ("created", when(notification.created_at)),
    ]
    context = sorted(set(notification.context_keys or ()))
    if context:
        facts.append(("context", ", ".join(context)))
    out += [[(f"{name:>12}  ", "dim"), (safe(value, newlines=False), "")] for name, value in facts]
    # Decision 124: the topic it came through and the subscription that let it through.
    out += [
        [(f"{'topic':>12}  ", "dim"), (safe(words, newlines=False), "")]
        for words in topic_words(notification)
    ]
    for job, cause in job_causes(notification):
        mark = glyph(cause)
        head: Line = [
            (f"{mark} ", GLYPH_STYLE.get(mark, "")),
            (safe(job.name, newlines=False), "bold"),
            (f"  {safe(job.type, newlines=False)} · {safe(job.status, newlines=False)}", ""),
        ]
        if job.provider_id:
            head.append((f" · {safe(job.provider_id, newlines=False)}", "dim"))
        out += [[], head, [("  " + safe(cause.words, newlines=False), "italic")]]
        if context and cause.cause is Cause.PREFERENCE:
            # Decision 125: which records decided depends on a flag only the service knows.
            out.append([(CONTEXT_DECIDED, "")])
        if cause.cause is Cause.AFTER_SENDING and (by := reporter_words(job, integrations)):
            out.append([("  " + safe(by, newlines=False), "")])
        if (untracked := untracked_note(job, integrations)) is not None:
            out.append([(f"  {untracked}", "yellow")])
        if (meant := advice_of(job)) is not None:
            # Beside the provider's words (the cause, the raw answer below), never instead.
            out.append([("  " + meant.words, "")])
        if not job.execution_details:
            out.append([("  (no execution details)", "dim")])
        for detail in job.execution_details:
            status = safe(detail.status, newlines=False)
            row: Line = [
                (f"  {when(detail.created_at)[11:]:8}  ", "dim"),
                (f"{status:<9}", STATUS_STYLE.get(str(detail.status), "")),
                (f" {safe(detail.source or '', newlines=False):<11} ", "dim"),
                (safe(detail.detail, newlines=False), ""),
            ]
            if detail.is_retry:
                row.append((" (retry)", "dim"))
            out.append(row)
            if detail.raw:
                raw = shown_raw(detail.raw)
                out += [
                    [("      " + safe(part, newlines=False), JSON_LINE)]
                    for part in raw[:RAW_CHARS].split("\n")
                ]
                if len(raw) > RAW_CHARS:
                    more = f"      … {len(raw) - RAW_CHARS:,} more characters"
                    out.append([(more, "dim")])
    return out


def plain(line: Line) -> str:
    return "".join(text for text, _ in line)


# Narrower than this, a line's last run wraps under the line's own indent instead.
HANG_ROOM = 24


def wrapped(line: Line, width: int) -> list[Line]:
    """`line` as lines of at most `width` cells: its last run (the cause, the detail)
    wrapped under its own start, or under the line's indent when the runs before it
    leave too little room. JSON lines, and any line that fits, stay as they are."""
    text = plain(line)
    if width <= 0 or cells(text) <= width or not line or line[-1][1] == JSON_LINE:
        return [line]
    *head, (last, style) = line
    if not head:  # one run: its leading spaces are its indent
        lead = len(last) - len(last.lstrip(" "))
        head, last = [(last[:lead], "")], last[lead:]
    start = cells(plain(head))
    if width - start >= HANG_ROOM:
        first, *rest = wrap(last, width - start)
        return [[*head, (first, style)], *[[(" " * start + part, style)] for part in rest]]
    indent = min(len(text) - len(text.lstrip(" ")) + 2, width // 2)
    return [list(head), *[[(" " * indent + part, style)] for part in wrap(last, width - indent)]]


class TimelineView(ScrollView, can_focus=True):
    """The timeline's lines, drawn only as they come into view (the line API)."""

    def __init__(self, notification: ActivityNotification, id: str | None = None) -> None:
        super().__init__(id=id)
        self.show(notification)

    def show(
        self,
        notification: ActivityNotification,
        integrations: Sequence[Integration] = (),
        when: str = "",
    ) -> None:
        self.lines = lines(notification, integrations)
        if when:
            self.lines.insert(1, [("        when  ", "dim"), (safe(when, newlines=False), "")])
        self._wrap_to(self.scrollable_content_region.width if self.is_mounted else 0)

    def on_resize(self) -> None:
        self._wrap_to(self.scrollable_content_region.width)

    def _wrap_to(self, width: int) -> None:
        """The lines as drawn: causes and details wrapped to the view's width, so the
        whole cause shows at 80 columns; a provider's JSON keeps its lines (scrolled)."""
        self.shown = [part for line in self.lines for part in wrapped(line, width)]
        self._drawn: dict[int, Strip] = {}
        widest = max((cells(plain(line)) for line in self.shown), default=0)
        self.virtual_size = Size(widest, len(self.shown))
        self.refresh()

    @property
    def text(self) -> str:
        """Everything the timeline holds, as plain text."""
        return "\n".join(plain(line) for line in self.lines)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        if index >= len(self.shown):
            return Strip.blank(width, self.rich_style)
        strip = self._drawn.get(index)
        if strip is None:
            strip = self._drawn[index] = self._strip(self.shown[index])
        return strip.crop_extend(scroll_x, scroll_x + width, self.rich_style)

    def _strip(self, line: Line) -> Strip:
        base = self.rich_style
        if len(line) == 1 and line[0][1] == JSON_LINE:
            text = Text(line[0][0])
            _HIGHLIGHT.highlight(text)
            return Strip(
                [
                    Segment(s.text, base + s.style if s.style else base)
                    for s in text.render(self.app.console)
                ]
            )
        # Style.parse is cached by Rich; an empty style leaves the base as it is.
        return Strip(
            [Segment(text, base + Style.parse(style) if style else base) for text, style in line]
        )


_HIGHLIGHT = JSONHighlighter()


TIMELINE = "timeline"
# The header's mark of a followed timeline.
LIVE = "● live"
PAUSED = "⏸ paused"


class TimelineScreen(ShownAgain, Screen[None]):
    """One notification's delivery, shown at once from what was just read (the list's
    page, or the lookup); `ctrl+r` reads it again (its jobs may have moved on)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape,backspace",
            "close",
            "Back",
            id="timeline.close",
            tooltip="Back to the list",
        ),
        Binding("ctrl+r,f5", "refresh", "Refresh", id="timeline.refresh", tooltip="Read it again"),
        *view_keys("timeline", lambda name: f"view({name!r})"),
        subscriber_key("timeline"),
        Binding(
            "5",
            "preferences",
            "Preferences",
            id="timeline.preferences",
            tooltip="Preferences; when a preference canceled a step, on that workflow and channel",
        ),
        Binding(
            "R",
            "resend",
            "Resend",
            id="timeline.resend",
            tooltip="Send it again, as the dashboard does, after naming every channel",
        ),
        Binding(
            "X",
            "cancel_delayed",
            "Cancel delayed",
            id="timeline.cancel",
            tooltip="Cancel what still waits in a delay or digest, for every subscriber",
        ),
        Binding("L", "follow", "Follow", id="timeline.follow", tooltip="Follow live, or pause"),
    ]

    # "live", "paused", or "" when not followed.
    following: var[str] = var("", bindings=True)

    def __init__(self, context: ViewContext, notification: ActivityNotification) -> None:
        super().__init__(id=TIMELINE)
        self.context = context
        self.notification = notification
        # The view it was opened from, whose mode Esc goes back to (show_timeline).
        self.back_to = "inbox"
        # What a follow reads: a notification id, or the transactionId of a resend not
        # yet in the feed; and its subscriber.
        self._target: tuple[str, str | None] = (notification.id, None)
        self._tracked: frozenset[str] | None = None
        # The environment's integrations, read once: which sent a job without tracking.
        self.integrations: list[Integration] = []
        self.said_when = ""  # decision 126's words for this notification, once read

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield TimelineView(self.notification, id="timeline-body")
        yield AppFooter()

    def on_mount(self) -> None:
        self._title()
        self.context.writes.subscribe(self, self._write_done)
        self.read_integrations()
        self.read_when()

    def _title(self) -> None:
        mark = {"live": f" · {LIVE}", "paused": f" · {PAUSED}"}.get(self.following, "")
        name = clip(f"Delivery of {self.notification.workflow_name}", 80)
        self.sub_title = clip(f"{name}{mark}", 100)

    def watch_following(self) -> None:
        self._title()

    @work(exclusive=True, group="timeline-when", exit_on_error=False)
    async def read_when(self) -> None:
        """Decision 126: whether the preference that canceled a step came before the
        notification, added under the cause once read (nothing where it cannot be)."""
        notification = self.notification
        try:
            said = await preference_when(self.context.client, notification)
        except InboxdeskError:
            return
        if said and notification is self.notification:
            self.said_when = said
            self.query_one(TimelineView).show(notification, self.integrations, said)

    @work(group="timeline-integrations", exit_on_error=False)
    async def read_integrations(self) -> None:
        """Read once; where they cannot be read the timeline simply says nothing of
        tracking (never that it was on)."""
        try:
            self.integrations = await self.context.client.list_integrations()
        except InboxdeskError:
            return
        self.query_one(TimelineView).show(self.notification, self.integrations, self.said_when)

    def on_screen_resume(self) -> None:
        self.query_one(TimelineView).focus()

    def show(self, notification: ActivityNotification, *, home: bool = True) -> None:
        """Another notification in this screen (built once, shown again and again)."""
        fresh = notification.id != self.notification.id
        if fresh and home:
            self.stop_following()
            self._target = (notification.id, None)
        self.notification = notification
        if fresh:
            self.said_when = ""
        self._title()
        view = self.query_one(TimelineView)
        view.show(notification, self.integrations, self.said_when)
        if home:
            view.scroll_home(animate=False)
        self.refresh_bindings()
        if fresh:
            self.read_when()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.context.allows(action):
            return False  # read-only: not bound
        if action == "cancel_delayed":
            return True if cancellable([self.notification]) else None
        return True

    # -- follow ------------------------------------------------------------------------

    def action_follow(self) -> None:
        if self.following == "live":
            self.stop_following(paused=True)
        else:
            self.start_following()

    def start_following(self, key: str | None = None, subscriber: str | None = None) -> None:
        """Read the delivery again and again until it is final (follow.py)."""
        if key is not None:
            self._target = (key, subscriber)
        self.following = "live"
        self._follow()

    def stop_following(self, paused: bool = False) -> None:
        self.workers.cancel_group(self, "follow")
        self.following = "paused" if paused else ""

    @work(exclusive=True, group="follow", exit_on_error=False)
    async def _follow(self) -> None:
        client, clock = self.context.client, self.context.clock
        if self._tracked is None:
            # The integrations this view already read for tracking, where it has them.
            self._tracked = (
                tracked_of(self.integrations)
                if self.integrations
                else await tracked_providers(client)
            )
        key, subscriber = self._target
        state = Follow(
            clock(),
            grace=self.context.follow_grace,
            limit=self.context.follow_limit,
            tracked=self._tracked,
        )

        async def read() -> list[ActivityNotification]:
            return await finding.find(client, key, subscriber)

        def shown(found: list[ActivityNotification], moved: bool) -> None:
            if found and moved:
                self.show(found[0], home=False)

        try:
            ending = await follow(read, state, clock, shown)
        except InboxdeskError as exc:
            self.following = "paused"  # L tries again
            self.context.report(exc)
            return
        self.following = ""
        if ending is Ending.LIMIT:
            minutes = state.limit / 60
            self.notify(
                f"Stopped following after {minutes:g} minutes: not every step is final yet. "
                "L follows it again.",
                severity="warning",
                markup=False,
            )

    # -- resend and cancel ---------------------------------------------------------------

    def action_resend(self) -> None:
        chosen = plan(self.notification, self.context.clock())
        if isinstance(chosen, str):
            self.notify(clip(chosen, 200), severity="warning", markup=False)
            return
        first, _, rest = chosen.question.partition("\n")

        def answered(yes: bool | None) -> None:
            if yes:
                self._send(chosen.write())

        self.app.push_screen(ConfirmScreen(first, rest, "Resend"), answered)

    def action_cancel_delayed(self) -> None:
        self._ask_cancel(self.notification.transaction_id)

    @work(group="write", exit_on_error=False)
    async def _ask_cancel(self, transaction_id: str) -> None:
        found = await finding.by_transaction(self.context.client, transaction_id)
        found = found or [self.notification]
        first, _, rest = cancel_question(transaction_id, found).partition("\n")

        def answered(yes: bool | None) -> None:
            if yes:
                self._send(cancel_write(transaction_id, found))

        self.app.push_screen(ConfirmScreen(first, rest, "Cancel delayed work"), answered)

    @work(group="write", exit_on_error=False)
    async def _send(self, write: Write) -> None:
        await self.context.outbox.submit(write)

    def _write_done(self, event: Event) -> None:
        """A resend of this view is followed under its new transactionId; a cancel of
        the transaction on screen reads it again."""
        if not isinstance(event, Sent):
            return
        write = event.write
        if write.kind is Kind.RESEND and write.steps[0].ids[-1] == self.notification.transaction_id:
            answer = event.result.trigger
            if answer is not None and answer.queued:
                self.start_following(answer.transaction_id, write.target)
        elif write.kind is Kind.CANCEL and write.target == self.notification.transaction_id:
            self.reload()

    def on_resize(self, event: Resize) -> None:
        # The Resize a screen gets after its first layout, to the size it was laid out
        # at, would lay it out and draw it a second time before its first frame.
        if event.size == self.outer_size:
            event.prevent_default()

    def action_close(self) -> None:
        self.app.switch_mode(self.back_to)

    def on_screen_suspend(self) -> None:
        # Left for another view (not for a question over it): a follow no one sees pauses.
        if self.following == "live" and self.app.current_mode != TIMELINE:
            self.stop_following(paused=True)

    def action_refresh(self) -> None:
        self.reload()

    async def action_view(self, action: str) -> None:
        """Leave the timeline for a view: back to the view it was opened from, which
        does what the key does there (a view with no such action, Activity's own `4`,
        is simply shown again)."""
        self.app.switch_mode(self.back_to)
        await self.app.run_action(action, self.app.screen)

    def action_preferences(self) -> None:
        """The notification's subscriber's Preferences; when a preference is the cause,
        the cursor on that workflow's (or the global) channel."""
        spot = preference_behind(self.notification)
        who = self.notification.subscriber
        self.app.post_message(
            OpenPreferences(
                who.subscriber_id if who else None,
                spot.workflow if spot else None,
                spot.channel if spot else None,
                # Its context's records may be the ones that applied (decision 125).
                tuple(sorted(set(self.notification.context_keys or ()))),
            )
        )

    def action_show_subscriber(self) -> None:
        """The notification's subscriber, the cursor on the field its cause names (a
        missing or bad address, token or webhook URL)."""
        from inboxdesk.tui.subscriber.keys import OpenSubscriberView, field_behind

        who = self.notification.subscriber
        field = field_behind(self.notification)
        self.app.post_message(OpenSubscriberView(who.subscriber_id if who else None, field))

    @work(exclusive=True, group="timeline", exit_on_error=False)
    async def reload(self) -> None:
        fresh = await self.context.client.activity_notification(self.notification.id)
        self.show(fresh, home=False)


def open_delivery(
    view: Screen[None], context: ViewContext, subscriber_id: str | None, transaction_id: str | None
) -> None:
    """The timeline of the notification `transaction_id` names for the subscriber (the
    first, if it names several); a notice when it names none."""
    if not transaction_id:
        view.notify("This message names no transactionId to find its delivery by.")
        return

    async def find() -> None:
        found = await finding.find(context.client, transaction_id, subscriber_id)
        if not found:
            view.notify(
                f"No notification has the id or transactionId {clip(transaction_id, 60)}.",
                severity="warning",
                markup=False,
            )
            return
        show_timeline(view.app, context, found[0])

    view.run_worker(find(), group="delivery", exclusive=True, exit_on_error=False)


def show_timeline(
    app: App[object], context: ViewContext, notification: ActivityNotification
) -> None:
    """The timeline of `notification`, in its own mode (built once and kept, so a later
    one shows without composing it again); Esc goes back to the view it came from."""
    back_to = app.current_mode
    screen = context.open(TIMELINE, notification)
    if isinstance(screen, TimelineScreen) and back_to != TIMELINE:
        screen.back_to = back_to
