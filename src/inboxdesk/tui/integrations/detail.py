"""One integration in full: configurations, readable conditions, masked credentials."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from inboxdesk.core.delivery.tracking import tracking_words, tracks
from inboxdesk.models import Integration
from inboxdesk.scope import Scope
from inboxdesk.text import safe
from inboxdesk.tui.widgets.fields import add, grid, heading, json_value, plain


def primary_note(item: Integration) -> str | None:
    """Why set primary does not apply to this integration, or None when it does."""
    channel = safe(item.channel) if item.channel else None
    if channel is None:
        return "It has no channel; only email and sms integrations have a primary."
    if not item.supports_primary:
        return f"{channel} integrations have no primary: only email and sms do."
    if item.primary:
        return f"Already the primary {channel} integration."
    return None


def render_integration(
    item: Integration, key: str = "p", scope: Scope | None = None, read_only: str | None = None
) -> RenderableType:
    """The pane's content; `key` is what set primary is bound to (a keymap may move it)."""
    scope = scope or Scope()
    parts: list[RenderableType] = [plain(item.name, style="bold")]
    where = Text(f"in {scope.name(item.environment_id)}", style="bold")
    if scope.is_own(item.environment_id):
        where.append(" (the API key's own environment)", style="green")
    elif scope.own_id is not None:
        where.append(" (not the API key's environment)", style="bold yellow")
    else:
        where.append(" (the API key's own environment is unknown)", style="yellow")
    parts.append(where)
    state = plain(f"{item.channel or 'no channel'} · {item.provider_id} · ")
    state.append("active" if item.active else "inactive", style="green" if item.active else "dim")
    if item.primary:
        state.append(" · ★ primary", style="bold yellow")
    parts.append(state)
    tracking = tracking_words(item)
    if tracking is not None:
        parts.append(Text(tracking, style="green" if tracks(item) else "yellow"))
    # Read-only: no key is bound, so none is offered (`read_only` says which setting).
    note = f"off in a read-only run ({read_only})" if read_only else primary_note(item)
    parts.append(
        plain(
            f"Set primary: {note}"
            if read_only
            else f"Set primary ({key}): {note}"
            if note
            else f"Press {key} to make it the primary {item.channel} integration of "
            f"{scope.name(item.environment_id)}.",
            style="italic dim" if note else "italic",
        )
    )
    details = grid(
        [
            ("id", item.id or ""),
            ("identifier", item.identifier),
            ("environment", f"{scope.name(item.environment_id)} ({item.environment_id})"),
            ("priority", "" if item.priority is None else str(item.priority)),
            ("organization", item.organization_id),
        ]
    )
    parts += [heading("Details"), details]

    conditions = item.conditions or []
    parts.append(heading(f"Conditions ({len(conditions)})"))
    for n, condition in enumerate(conditions, 1):
        kind = f"[{condition.type}] " if condition.type else ""
        parts.append(plain(f"{n}. {kind}{condition.describe()}"))
    if not conditions:
        parts.append(Text("none", style="dim"))

    parts.append(heading("Configurations"))
    # The one masking rule of the models: signing keys, tokens and the like.
    config = item.configurations.masked() if item.configurations else {}
    if config:
        rows = grid()
        for key, value in config.items():
            add(rows, json_value(key), value)
        parts.append(rows)
    else:
        parts.append(Text("none", style="dim"))

    parts.append(heading("Credentials (secrets masked)"))
    masked = item.credentials.masked() if item.credentials is not None else {}
    if masked:
        rows = grid()
        for key, value in masked.items():
            add(rows, key, value)
        parts.append(rows)
    else:
        parts.append(Text("none shown", style="dim"))
    return Group(*parts)


class IntegrationDetail(VerticalScroll):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        # What the pane shows now: the same again (a refresh that changed nothing of
        # it, a cursor that did not move) is not drawn and laid out again.
        self._shown: tuple[object, ...] | None = None

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(Text("No integration selected.", style="dim"), id="integration-body")

    def show(
        self,
        item: Integration | None,
        key: str = "p",
        scope: Scope | None = None,
        read_only: str | None = None,
    ) -> None:
        shown = (item, key, scope, read_only)
        if shown == self._shown:
            return
        self._shown = shown
        body = self.query_one("#integration-body", Static)
        body.update(
            render_integration(item, key, scope, read_only)
            if item
            else Text("No integration selected.", style="dim")
        )
