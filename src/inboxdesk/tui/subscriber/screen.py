"""The Subscriber view: every field of a subscriber, each integration's credentials
masked, which channel would fail for want of which field, and the topics it follows
with each subscription's conditions in words. Enter (or `e`) on a row
fixes it: a field through its form (its value before, and the checks before sending), a push
entry by a token typed unseen, a chat entry by its webhook URL; `x` removes a
provider's credentials. Each change is one write through the outbox, undone from
History."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message as TextualMessage
from textual.widgets import DataTable, Static

from inboxdesk.client import InboxdeskError
from inboxdesk.models.subscriber_edit import (
    CHAT_PROVIDERS,
    PUSH_PROVIDERS,
    mask,
    masked_credentials,
    needs,
)
from inboxdesk.text import safe
from inboxdesk.tui.context import ViewContext
from inboxdesk.tui.screens.service_screen import ServiceScreen
from inboxdesk.tui.subscriber.edit import (
    UNCHANGED,
    EditField,
    SecretField,
    TokenPicker,
    shown_value,
)
from inboxdesk.tui.subscriber.topics import TOPIC_ROWS, Subscriptions, read_subscriptions
from inboxdesk.tui.view_keys import view_keys
from inboxdesk.tui.widgets.app_footer import AppFooter
from inboxdesk.tui.widgets.app_header import AppHeader
from inboxdesk.tui.widgets.in_place import update_in_place
from inboxdesk.tui.widgets.keyed_table import KeyedTable
from inboxdesk.writes import Event, Sent, Write
from inboxdesk.writes.kinds.credentials import credentials_write, removal_write
from inboxdesk.writes.kinds.subscriber import subscriber_write, values_of

if TYPE_CHECKING:
    from inboxdesk.models import Subscriber

FIELD_ROWS = ("email", "phone", "firstName", "lastName", "avatar", "locale", "timezone", "data")
# Shown, never changed here.
READ_ONLY_ROWS = ("isOnline", "lastOnlineAt", "createdAt", "updatedAt")
LEGEND = (
    "Enter: fix the highlighted row · d: remove a token · x: remove a provider's credentials · "
    "every change is undone from History (3)."
)


class ShowSubscriber(TextualMessage):
    """Show this subscriber, the cursor on `field` when given."""

    def __init__(self, subscriber_id: str, field: str | None = None) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.field = field


class SubscriberLoaded(TextualMessage):
    def __init__(
        self, subscriber: Any, push_provider: str | None, topics: Subscriptions | None = None
    ) -> None:
        super().__init__()
        self.subscriber = subscriber
        self.push_provider = push_provider
        self.topics = topics


def _credentials_words(entry: dict[str, Any]) -> str:
    shown = masked_credentials(entry.get("credentials"))
    parts = []
    tokens = shown.get("deviceTokens")
    if isinstance(tokens, list):
        parts.append(f"tokens: {', '.join(tokens) if tokens else '(none)'}")
    if shown.get("webhookUrl"):
        parts.append(f"webhookUrl: {shown['webhookUrl']}")
    if shown.get("channel"):
        parts.append(f"channel: {shown['channel']}")
    integration = entry.get("_integrationId") or "?"
    return f"{'; '.join(parts) or '(empty)'} · integration {integration}"


class SubscriberScreen(ServiceScreen):
    DEFAULT_CSS = """
    SubscriberScreen #subscriber-table { height: 1fr; }
    SubscriberScreen #subscriber-title, SubscriberScreen #subscriber-row {
        height: auto; padding: 0 1;
    }
    SubscriberScreen #subscriber-legend { height: auto; padding: 0 1; color: $text-muted; }
    """
    AUTO_FOCUS = "#subscriber-table"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "e",
            "edit_subscriber",
            "Fix",
            id="subscriber.edit",
            tooltip="Change the highlighted field, or add a token or webhook URL",
        ),
        Binding(
            "d",
            "remove_token",
            "Remove token",
            id="subscriber.remove_token",
            tooltip="Remove one device token of the highlighted push provider",
        ),
        Binding(
            "x",
            "remove_credentials",
            "Remove credentials",
            id="subscriber.remove",
            tooltip="Remove every credentials entry of the highlighted provider",
        ),
        Binding(
            "ctrl+r,f5",
            "refresh",
            "Refresh",
            id="subscriber.refresh",
            tooltip="Read the subscriber again",
        ),
        *view_keys("subscriber"),
    ]

    def __init__(self, context: ViewContext, subscriber_id: str, field: str | None = None) -> None:
        super().__init__(id="subscriber")
        self.context = context
        self.subscriber_id = subscriber_id
        self.subscriber: Subscriber | None = None
        self.wanted = field
        self.push_provider: str | None = None  # the newest active push integration's
        self.topics: Subscriptions | None = None  # the topics it follows, once read

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield Static(id="subscriber-title")
        yield KeyedTable(id="subscriber-table", cursor_type="row")
        yield Static(id="subscriber-row")
        yield Static(Text(LEGEND), id="subscriber-legend")
        yield AppFooter()

    def on_mount(self) -> None:
        table = self.table
        table.add_column("field", key="field")
        table.add_column("value", key="value")
        self.context.writes.subscribe(self, self._write_done)
        self.reload()

    @property
    def table(self) -> KeyedTable:
        return self.query_one("#subscriber-table", KeyedTable)

    def on_show_subscriber(self, event: ShowSubscriber) -> None:
        self.wanted = event.field
        if event.subscriber_id != self.subscriber_id or self.subscriber is None:
            self.subscriber_id = event.subscriber_id
            self.subscriber = None
            self.reload()
        else:
            self._land()

    def reload(self) -> None:
        who = safe(self.subscriber_id, newlines=False)
        self.sub_title = safe(f"Subscriber · {self.subscriber_id}", newlines=False)
        self.query_one("#subscriber-title", Static).update(Text(f"Subscriber {who}", style="bold"))
        self.table.loading = self.subscriber is None
        self.load(self.subscriber_id)

    @work(exclusive=True, group="subscriber", exit_on_error=False)
    async def load(self, subscriber_id: str) -> None:
        try:
            subscriber = await self.context.client.get_subscriber(subscriber_id)
            integrations = await self.context.client.list_integrations(active_only=True)
        except InboxdeskError as exc:
            self.table.loading = False
            self.context.report(exc)
            return
        push = [i.provider_id for i in integrations if i.provider_id in PUSH_PROVIDERS]
        topics = await read_subscriptions(self.context.client, subscriber_id)
        self.post_message(SubscriberLoaded(subscriber, push[-1] if push else None, topics))

    def on_subscriber_loaded(self, event: SubscriberLoaded) -> None:
        if event.subscriber.subscriber_id != self.subscriber_id:
            return  # an answer for a subscriber no longer shown
        self.subscriber = event.subscriber
        self.push_provider = event.push_provider
        self.topics = event.topics
        if not self.table.size.width:
            # Covered while loading, the table is laid out as it is uncovered, and a
            # DataTable draws every cell again on its resize: the rows are drawn after it.
            self.table.loading = False
            self.table.call_after_refresh(self._draw)
            return
        self._draw()

    def _draw(self) -> None:
        subscriber = self.subscriber
        assert subscriber is not None
        wire = subscriber.model_dump(by_alias=True)
        table = self.table
        keep = self._key()
        table.clear()
        table.add_row(Text("subscriberId"), Text(safe(subscriber.subscriber_id)), key="id")
        values = values_of(subscriber)
        for name in FIELD_ROWS:
            shown = safe(shown_value(name, values.get(name)), newlines=False)
            table.add_row(Text(name), Text(shown), key=name)
        for name in READ_ONLY_ROWS:
            value = wire.get(name)
            shown = "(none)" if value is None else safe(str(value), newlines=False)
            table.add_row(Text(name, style="dim"), Text(shown, style="dim"), key=name)
        for n, entry in enumerate(wire.get("channels") or []):
            provider = str(entry.get("providerId"))
            words = safe(_credentials_words(entry), newlines=False)
            table.add_row(
                Text(f"credentials {safe(provider, newlines=False)}"),
                Text(words),
                key=f"cred:{provider}:{n}",
            )
        for n, need in enumerate(needs(wire)):
            table.add_row(
                Text("would fail", style="bold red"),
                Text(safe(need.words, newlines=False)),
                key=f"need:{need.field}:{n}",
            )
        if self.topics is not None:
            for key, label, words in self.topics.rows():
                table.add_row(Text(label, style="bold"), Text(words), key=key)
        self.table.loading = False
        if self.wanted is not None:
            self._land()
        elif keep is not None:
            self._go(keep)
        self._say_row()

    def _keys(self) -> list[str]:
        return [str(k.value) for k in self.table.rows]

    def _key(self) -> str | None:
        keys = self._keys()
        row = self.table.cursor_row
        return keys[row] if 0 <= row < len(keys) else None

    def _go(self, key: str) -> bool:
        keys = self._keys()
        if key not in keys:
            return False
        self.table.move_cursor(row=keys.index(key), animate=False)
        return True

    def _land(self) -> None:
        """The cursor on the field a cause names: the field, the provider's entry, or
        the line that says what is missing."""
        field, self.wanted = self.wanted, None
        if not field or self.subscriber is None:
            return
        keys = self._keys()
        kind, _, provider = field.partition(":")
        found = None
        if kind in FIELD_ROWS:
            found = kind
        else:
            family = PUSH_PROVIDERS if kind == "deviceTokens" else CHAT_PROVIDERS
            for key in keys:
                named = key.removeprefix("cred:").partition(":")[0]
                if key.startswith("cred:") and named in family and named == (provider or named):
                    found = key
                    break
            if found is None:
                found = next((k for k in keys if k.startswith(f"need:{kind}")), None)
        if found is not None:
            self._go(found)
        self._say_row()

    @on(DataTable.RowHighlighted, "#subscriber-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._say_row()

    def _say_row(self) -> None:
        key = self._key() or ""
        words = ""
        if key in FIELD_ROWS:
            words = f"{key}: Enter changes it (empty clears it)."
        elif key.startswith("cred:"):
            provider = key.split(":")[1]
            if provider in PUSH_PROVIDERS:
                words = f"{provider}: Enter adds a device token (typed unseen); x removes it all."
            else:
                words = f"{provider}: Enter sets its webhook URL (typed unseen); x removes it all."
        elif key.startswith("need:"):
            words = "Enter fixes what this channel lacks."
        elif key.startswith(TOPIC_ROWS) and self.topics is not None:
            words = self.topics.said(key)
        elif key in READ_ONLY_ROWS or key == "id":
            name = "subscriberId" if key == "id" else key
            words = f"{name}: kept by the service, not changed here."
        update_in_place(
            self.query_one("#subscriber-row", Static), Text(safe(words, newlines=False))
        )

    @on(DataTable.RowSelected, "#subscriber-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        if self.context.allows("edit_subscriber"):
            self.action_edit_subscriber()
        else:
            self.notify(f"Read-only ({self.context.read_only}): nothing can be changed.")

    def action_edit_subscriber(self) -> None:
        key = self._key()
        subscriber = self.subscriber
        if key is None or subscriber is None:
            return
        if key.startswith("need:"):
            field = key.split(":")[1]
            kind, _, provider = field.partition(":")
            if kind in FIELD_ROWS:
                key = kind
            elif kind == "deviceTokens":
                provider = provider or self.push_provider or ""
                if not provider:
                    self.notify(
                        "No active push integration in this environment: add one first.",
                        severity="warning",
                        markup=False,
                    )
                    return
                self._ask_secret(provider, "add-token")
                return
            else:
                self._ask_secret(provider, "webhook-url")
                return
        if key in FIELD_ROWS:
            before = values_of(subscriber).get(key)
            screen = EditField(self.subscriber_id, key, before)
            self.app.push_screen(screen, lambda value: self._field_given(key, before, value))
        elif key.startswith("cred:"):
            provider = key.split(":")[1]
            what = "add-token" if provider in PUSH_PROVIDERS else "webhook-url"
            self._ask_secret(provider, what)

    def _field_given(self, name: str, before: Any, value: object) -> None:
        if value is UNCHANGED or self.subscriber is None:
            return
        self.send(subscriber_write(self.subscriber_id, {name: value}, values_of(self.subscriber)))

    def _ask_secret(self, provider: str, what: str) -> None:
        name = safe(provider, newlines=False)
        title = (
            f"Add a device token to {name}" if what == "add-token" else f"The {name} webhook URL"
        )

        def given(secret: str | None) -> None:
            if not secret or self.subscriber is None:
                return
            write = credentials_write(self.subscriber, provider, what, secret)
            if isinstance(write, str):
                self.notify(safe(write), severity="warning", markup=False)
                return
            self.send(write)

        self.app.push_screen(SecretField(title), given)

    def action_remove_token(self) -> None:
        """One token of the highlighted push entry, picked from the masked list; the
        others are sent whole, so they stay."""
        key = self._key() or ""
        subscriber = self.subscriber
        provider = key.split(":")[1] if key.startswith("cred:") else ""
        if subscriber is None or provider not in PUSH_PROVIDERS:
            self.notify("Move to a push provider's credentials first.", markup=False)
            return
        entries = [c for c in subscriber.channels or [] if c.provider_id == provider]
        tokens = [t for c in entries for t in c.credentials.device_tokens or []]
        if not tokens:
            self.notify(f"{safe(provider)} holds no device token.", markup=False)
            return

        def picked(index: int | None) -> None:
            if index is None or not 0 <= index < len(tokens) or self.subscriber is None:
                return
            write = credentials_write(self.subscriber, provider, "remove-token", tokens[index])
            if isinstance(write, str):
                self.notify(safe(write), severity="warning", markup=False)
                return
            self.send(write)

        title = f"Remove a device token of {safe(provider, newlines=False)}"
        # A token's last characters are the service's text too.
        shown = [safe(mask(t), newlines=False) for t in tokens]
        self.app.push_screen(TokenPicker(title, shown), picked)

    def action_remove_credentials(self) -> None:
        key = self._key() or ""
        if not key.startswith("cred:") or self.subscriber is None:
            self.notify("Move to a credentials row first.", markup=False)
            return
        write = removal_write(self.subscriber, key.split(":")[1])
        if isinstance(write, str):
            self.notify(safe(write), severity="warning", markup=False)
            return
        self.send(write)

    @work(group="write", exit_on_error=False)
    async def send(self, write: Write) -> None:
        await self.context.outbox.submit(write)

    def _write_done(self, event: Event) -> None:
        """A change of this subscriber's data (this view's, or an undo from History):
        read it again, as the service now has it."""
        write = event.write
        from inboxdesk.writes.kinds import kind_of
        from inboxdesk.writes.kinds.base import SUBSCRIBER_DATA

        mine = kind_of(write).things == SUBSCRIBER_DATA and write.target == self.subscriber_id
        if mine and isinstance(event, Sent):
            self.reload()

    def action_refresh(self) -> None:
        self.reload()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Read-only: a change is a write, not bound.
        return self.context.allows(action)
