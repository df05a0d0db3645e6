"""Everything a support agent may need about one message, rendered without markup.

It shows a full `Message` (what mark-as returns) or a feed item, whose subscriber and
workflow are subsets (no email or phone, no workflow name or steps): every field is
read with `getattr`, so a field the object lacks is simply not shown.
"""

from __future__ import annotations

from collections.abc import Hashable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.cache import LRUCache
from textual.containers import VerticalScroll
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget
from textual.widgets import Static

from inboxdesk.models.inbox import InboxNotification
from inboxdesk.tui.widgets.drawn_once import DrawnOnce
from inboxdesk.tui.widgets.fields import (
    add,
    add_when,
    content_key,
    grid,
    heading,
    json_block,
    json_value,
    plain,
)
from inboxdesk.tui.widgets.in_place import fits

if TYPE_CHECKING:
    # Named only: the v2 inbox's pane needs none of them (nor their imports).
    from inboxdesk.models import EmailBlock, Message, NotificationStep
    from inboxdesk.models.feed import FeedItem


def _get(obj: object, name: str) -> Any:
    """A declared field of a full or subset model; None where the model declares none.

    Unknown wire fields are kept on models as extras, untyped: a subset (a feed item's
    template) sent in full by some service must not be read as the full model.
    """
    fields = getattr(type(obj), "model_fields", None)
    if fields is not None and name not in fields:
        return None
    return getattr(obj, name, None)


def _title(message: Message | FeedItem) -> str:
    workflow = _get(message.template, "name") if message.template else None
    return _get(message, "title") or _get(message, "subject") or workflow or ""


def _person(subscriber: object) -> str:
    name = " ".join(p for p in (_get(subscriber, n) for n in ("first_name", "last_name")) if p)
    return name or _get(subscriber, "email") or _get(subscriber, "subscriber_id") or ""


def _step_kind(step: NotificationStep) -> str:
    """digest, delay, in_app…: the step template's type, else told by its metadata."""
    template_type = (step.template or {}).get("type")
    if template_type:
        return str(template_type)
    name = type(step.metadata).__name__
    return "digest" if name.startswith("Digest") else "delay" if name.startswith("Delay") else ""


def _step_line(step: NotificationStep) -> Text:
    line = Text("• ")
    line.append_text(plain(step.name or step.uuid or "step"))
    kind = _step_kind(step)
    if kind:
        line.append(f"  ({json_value(kind)})", style="cyan")
    if step.active is False:
        line.append(" inactive", style="dim")
    metadata = step.metadata
    if metadata is not None:
        described = metadata if isinstance(metadata, dict) else metadata.to_wire()
        detail = ", ".join(
            f"{k}={json_value(v)}"
            for k, v in described.items()
            if k != "type" and not isinstance(v, dict)
        )
        line.append("  ")
        line.append_text(plain(f"{described.get('type', '?')}: {detail}", style="cyan"))
    for condition in step.filters or []:
        line.append("\n    if ", style="magenta")
        line.append_text(plain(condition.describe(), style="magenta"))
    return line


def _content(message: Message | FeedItem) -> Text:
    content = Text()
    if isinstance(message.content, str):
        content.append_text(plain(message.content))
    elif message.content:
        for block in message.content:
            content.append_text(_block(block))
            content.append("\n")
    return content


def _cta(message: Message | FeedItem) -> list[RenderableType]:
    cta = message.cta
    url = cta.data.url if cta and cta.data else None
    if cta is None or (not url and not cta.action):
        return []
    rows = grid()
    if cta.type:
        add(rows, "type", cta.type)
    if url:
        # Plain text, never a link: a URL from a notification is not trusted to open.
        add(rows, "url", Text(json_value(url), style="underline"))
    if cta.action:
        add(rows, "action", cta.action.status or "—")
        for button in cta.action.buttons or []:
            label = Text("[ ")
            label.append_text(plain(button.content))
            label.append(f" ] ({json_value(button.type)})")
            if button.result_content:
                label.append(" → ")
                label.append_text(plain(button.result_content))
            add(rows, "button", label)
        if cta.action.result:
            result = cta.action.result
            add(rows, "result", f"{result.type or ''} {json_value(result.payload or {})}")
    return [heading("Call to action"), rows]


def _details(message: Message | FeedItem, now: datetime) -> Table:
    rows = grid()

    def when(label: str, stamp: str | None) -> None:
        add_when(rows, label, stamp, now)

    when("created", message.created_at)
    for stamp in message.delivered_at or []:
        when("delivered", stamp)
    when("last seen", message.last_seen_date)
    when("last read", message.last_read_date)
    when("snoozed until", message.snoozed_until)
    for label, value in (
        ("message id", message.id),
        ("transaction", message.transaction_id),
        ("notification", message.notification_id),
        ("job", _get(message, "job_id")),
        ("template id", message.template_id),
        ("template", message.template_identifier),
        ("feed", message.feed_id),
        ("provider", message.provider_id),
        ("email", message.email),
        ("phone", message.phone),
        ("archived", _get(message, "archived")),
    ):
        if value is not None and value != "":
            add(rows, label, value)
    if message.context_keys:
        add(rows, "context", ", ".join(message.context_keys))
    if message.device_tokens:
        add(rows, "devices", ", ".join(message.device_tokens))
    return rows


def _subscriber(subscriber: object) -> list[RenderableType]:
    rows = grid([("name", _person(subscriber))])
    for label, field in (
        ("subscriberId", "subscriber_id"),
        ("email", "email"),
        ("phone", "phone"),
        ("locale", "locale"),
        ("timezone", "timezone"),
    ):
        value = _get(subscriber, field)
        if value:
            add(rows, label, value)
    return [heading("Subscriber"), rows]


def _workflow(template: object) -> list[RenderableType]:
    name = _get(template, "name")
    parts: list[RenderableType] = []
    if name is None:  # a feed item's subset: id and tags only
        rows = grid()
        for label, value in (("id", _get(template, "id")), ("tags", _get(template, "tags"))):
            if value:
                add(rows, label, ", ".join(value) if isinstance(value, list) else value)
        return [heading("Workflow"), rows] if rows.row_count else []
    title = Text("\nWorkflow: ", style="bold underline")
    title.append_text(plain(name, style="bold underline"))
    parts.append(title)
    if _get(template, "description"):
        parts.append(plain(template.description, style="dim"))  # type: ignore[attr-defined]
    parts += [_step_line(step) for step in _get(template, "steps") or []]
    return parts


def render_state(message: Message | FeedItem) -> Text:
    """The line a mark changes: read, seen, status and channel, never wrapped."""
    state = Text(no_wrap=True, overflow="ellipsis")
    state.append("read" if message.read else "unread", style="" if message.read else "bold cyan")
    state.append(" · ")
    state.append("seen" if message.seen else "unseen", style="" if message.seen else "yellow")
    state.append_text(plain(f" · {message.status} · {message.channel}"))
    return state


def render_title(message: Message | FeedItem) -> Text:
    return plain(_title(message) or "(no title)", style="bold")


def render_message(message: Message | FeedItem, now: datetime) -> RenderableType:
    """The body below title and state: what stays the same when a mark changes the flags."""
    parts: list[RenderableType] = [heading("Content"), _content(message)]
    parts += _cta(message)
    if message.error_id or message.error_text:
        error = Text("\nError ", style="bold red")
        error.append_text(plain(f"{message.error_id or ''}: {message.error_text or ''}"))
        error.stylize("bold red")
        parts.append(error)
    parts += [heading("Details"), _details(message, now)]
    if message.subscriber:
        parts += _subscriber(message.subscriber)
    if message.template:
        parts += _workflow(message.template)
    for label, data in (("Payload", message.payload), ("Overrides", message.overrides)):
        if data:
            parts += [heading(label), json_block(data)]
    return Group(*parts)


def _block(block: EmailBlock) -> Text:
    if block.type == "button":
        text = Text("[ ", style="bold reverse")
        text.append_text(plain(block.content, style="bold reverse"))
        text.append(" ]", style="bold reverse")
        if block.url:
            text.append(" → ", style="underline")
            text.append_text(plain(block.url, style="underline"))
        return text
    return plain(block.content)


class MessageDetail(VerticalScroll):
    """The detail pane; shows the highlighted message.

    Title, state line and body are three widgets. A mark changes only the flags of the
    message shown, so only the state line, one line high, is redrawn, without a layout
    pass; title and body (with its JSON highlighting) are built again only when another
    message, or a new copy of it, is shown; a body that shows what one shown lately
    showed (the cursor back on a message) takes that one's lines, not drawn again.
    """

    DEFAULT_CSS = """
    MessageDetail > #message-state { height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(
        self,
        message: Message | FeedItem | InboxNotification | None = None,
        now: datetime | None = None,
        **kwargs: str | None,
    ) -> None:
        """Composed showing `message` (at `now`): mounted with it, the pane is laid out
        once, where showing it after the mount laid the screen out a second time."""
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._shown: Message | FeedItem | InboxNotification | None = None
        self._first = (message, now) if message is not None and now is not None else None
        # The lines of the bodies shown lately, by what they show, width and style.
        self._bodies: LRUCache[Hashable, list[Strip]] = LRUCache(32)

    def compose(self):  # type: ignore[no-untyped-def]
        title = Static(Text("No message selected.", style="dim"), id="message-title")
        state = Static(id="message-state")
        body = Static(id="message-body")
        if self._first is not None:
            message, now = self._first
            self._first = None
            self._shown = message
            state.update(_state(message))
            heading, drawn = _visuals(message, now, title, body, self._bodies)
            title.update(heading)
            body.update(drawn)
        yield title
        yield state
        yield body

    def show(self, message: Message | FeedItem | InboxNotification | None, now: datetime) -> None:
        state = self.query_one("#message-state", Static)
        state.update(Text() if message is None else _state(message), layout=False)
        if message is self._shown and message is not None:
            return
        self._shown = message
        title = self.query_one("#message-title", Static)
        body = self.query_one("#message-body", Static)
        if message is None:
            title.update(Text("No message selected.", style="dim"))
            body.update(Text())
        else:
            titled, drawn = _visuals(message, now, title, body, self._bodies)
            # As tall as the message before (a list's messages often are): redrawn in
            # place, without laying the whole screen out again.
            layout = not (fits(title, titled) and fits(body, drawn))
            title.update(titled, layout=layout)
            body.update(drawn, layout=layout)
        self.scroll_home(animate=False)


def _state(message: Message | FeedItem | InboxNotification) -> Text:
    from inboxdesk.tui.inbox.notification import notification_state

    if isinstance(message, InboxNotification):
        return notification_state(message)
    return render_state(message)


def _visuals(
    message: Message | FeedItem | InboxNotification,
    now: datetime,
    title: Widget,
    body: Widget,
    kept: LRUCache[Hashable, list[Strip]],
) -> tuple[Visual, DrawnOnce]:
    """The title's and the body's visuals of `message`, for those two widgets; the
    body's lines from `kept` if one kept there showed the same."""
    from inboxdesk.tui.inbox.notification import notification_title, render_notification

    if isinstance(message, InboxNotification):
        heading, shown = notification_title(message), render_notification(message, now)
    else:
        heading, shown = render_title(message), render_message(message, now)
    return visualize(title, heading), DrawnOnce(body, shown, kept, content_key(shown))
