"""The integrations of every environment whose key is held (one listing per key, merged),
by environment, the environments without a key named with the command that adds it; and
switching the primary email or sms one of an environment, with that environment's key."""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message as TextualMessage
from textual.reactive import var
from textual.widgets import DataTable, Static

from inboxdesk.client import InboxdeskError
from inboxdesk.core.environments.across import list_across, without_keys
from inboxdesk.core.environments.primary import PrimaryPlan, plan_primary
from inboxdesk.models import Integration
from inboxdesk.scope import Scope, load_scope, matches
from inboxdesk.tui.clipboard import copy
from inboxdesk.tui.context import ViewContext
from inboxdesk.tui.integrations.detail import IntegrationDetail, primary_note
from inboxdesk.tui.integrations.table import IntegrationTable
from inboxdesk.tui.messages import Reload, SelectIntegration
from inboxdesk.tui.preferences.opening import SHOW_PREFERENCES
from inboxdesk.tui.screens.confirm import ConfirmScreen, TypedConfirmScreen
from inboxdesk.tui.screens.service_screen import ServiceScreen
from inboxdesk.tui.view_keys import view_keys
from inboxdesk.tui.widgets.app_footer import AppFooter
from inboxdesk.tui.widgets.app_header import AppHeader
from inboxdesk.writes import Event, Kind, Sent


class IntegrationsLoaded(TextualMessage):
    def __init__(
        self, items: list[Integration], scope: Scope, keep: str | None, without: str = ""
    ) -> None:
        super().__init__()
        self.items = items
        self.scope = scope
        self.keep = keep
        self.without = without  # the environments without a key, and how to add one


class IntegrationsScreen(ServiceScreen):
    AUTO_FOCUS = "#integration-table"
    BINDINGS = [
        SHOW_PREFERENCES,
        Binding(
            "p",
            "set_primary",
            "Set primary",
            id="integrations.set_primary",
            tooltip="Make the highlighted email/sms integration the primary of its channel",
        ),
        Binding(
            "ctrl+r,f5",
            "refresh",
            "Refresh",
            id="integrations.refresh",
            tooltip="Load the integrations again",
        ),
        Binding(
            "c",
            "copy_id",
            "Copy id",
            id="integrations.copy_id",
            show=False,
            tooltip="Copy the highlighted integration's id",
        ),
        *view_keys("integrations"),
    ]

    # Whether `p` applies to the highlighted integration; the footer follows it.
    can_set_primary: var[bool] = var(False, bindings=True)

    def __init__(self, context: ViewContext) -> None:
        super().__init__(id="integrations")
        self.context = context
        self.items: dict[str, Integration] = {}
        # The plan each switch's confirmation showed, by write id: its outcome names it.
        self._plans: dict[str, PrimaryPlan] = {}

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with Horizontal(id="panes"):
            yield IntegrationTable(id="integration-table")
            yield IntegrationDetail(id="integration-detail")
        yield Static(id="without-key")
        yield AppFooter()

    def on_mount(self) -> None:
        self.sub_title = "Integrations"
        self.table.focus()
        self.context.offline.watch(self, self._service_state)
        self.context.writes.subscribe(self, self._write_done)
        self.reload()

    def _service_state(self, offline: bool) -> None:
        if not offline:
            self.reload()

    def on_reload(self, event: Reload) -> None:
        self.reload()

    def on_select_integration(self, event: SelectIntegration) -> None:
        self.select(event.integration_id)

    @property
    def table(self) -> IntegrationTable:
        return self.query_one(IntegrationTable)

    @property
    def current(self) -> Integration | None:
        integration_id = self.table.cursor_key
        return self.items.get(integration_id) if integration_id else None

    def reload(self, keep: str | None = None) -> None:
        self.table.loading = not self.items
        self.load(keep or self.table.cursor_key)

    @work(exclusive=True, group="integrations", exit_on_error=False)
    async def load(self, keep: str | None) -> None:
        client, keys = self.context.client, self.context.keys
        try:
            if keys is None:
                items, without = await client.list_integrations(), ""
            else:
                listing = await list_across(keys.key_clients())
                items, without = listing.integrations, without_keys(listing, keys)
            # Learned once; a list always needs the names of its environments.
            scope = self.context.scope.value or await load_scope(client)
        except InboxdeskError as exc:
            self.table.loading = False
            self.context.report(exc)
            return
        self.post_message(IntegrationsLoaded(items, scope, keep, without))

    def on_integrations_loaded(self, event: IntegrationsLoaded) -> None:
        self.items = {i.id: i for i in event.items if i.id}
        self.context.scope.set(event.scope)
        self.table.loading = False
        self.table.show(event.items, event.keep, event.scope)
        shown = self.query_one("#without-key", Static)
        shown.update(Text(event.without, style="dim"))
        shown.display = bool(event.without)
        self._show_detail()

    @property
    def scope(self) -> Scope:
        return self.context.scope.value or Scope()

    def _show_detail(self) -> None:
        item = self.current
        self.can_set_primary = item is not None and primary_note(item) is None
        self.query_one(IntegrationDetail).show(
            item, self.key_for("set_primary"), self.scope, self.context.read_only
        )

    @on(DataTable.RowHighlighted, "#integration-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def select(self, integration_id: str) -> None:
        """Move the cursor to an integration (from the command palette)."""
        if integration_id in self.table.rows:
            self.table.move_cursor(row=self.table.get_row_index(integration_id))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.context.allows(action):
            return False  # read-only: not bound
        if action == "set_primary":
            return True if self.can_set_primary else None
        return True

    def action_set_primary(self) -> None:
        item = self.current
        if item is None:
            return
        note = primary_note(item)
        if note is not None:
            self.notify(f"Set primary is not available: {note}", severity="warning", markup=False)
            return
        scope = self.scope
        if self.context.keys is not None and self.context.keys.holds(item.environment_id):
            # Sent with the integration's environment's own key: that key's environment.
            scope = replace(scope, own_id=item.environment_id)
        plan = plan_primary(item, list(self.items.values()), scope)
        detail = " ".join(plan.details())

        def answered(yes: bool | None) -> None:
            if yes:
                self.send_set_primary(plan)

        if plan.needs_typed_confirmation:
            found = self.scope.get(item.environment_id)

            def accepts(typed: str) -> bool:
                if found is None:
                    return typed.strip() == item.environment_id
                return matches(found, typed)

            self.app.push_screen(
                TypedConfirmScreen(
                    plan.question(),
                    detail,
                    f"Type the environment's name ({plan.environment_name}) and press Enter:",
                    accepts,
                ),
                answered,
            )
            return
        self.app.push_screen(ConfirmScreen(plan.question(), detail, "Set primary"), answered)

    @work(group="write", exit_on_error=False)
    async def send_set_primary(self, plan: PrimaryPlan) -> None:
        write = plan.write()
        self._plans[write.id] = plan
        await self.context.outbox.submit(write)

    def _write_done(self, event: Event) -> None:
        plan = self._plans.pop(event.write.id, None)
        if plan is None and event.write.kind is Kind.SET_PRIMARY and isinstance(event, Sent):
            self.reload()  # another view's switch (an undo from History): the list again
            return
        if plan is None or not isinstance(event, Sent) or event.result.integration is None:
            return  # not this view's switch, or it failed (the app said why)
        item = event.result.integration
        if item.id:
            self.items[item.id] = item
        for previous in plan.replaces:
            if previous.id in self.items:
                # The service demoted it; its answer holds only the new primary.
                self.items[previous.id] = previous.model_copy(update={"primary": False})
        # Show the changed rows now, then merge the service's whole list for the truth.
        self.table.show(list(self.items.values()), item.id)
        self._show_detail()
        self.notify(" ".join(plan.outcome(item)), markup=False)
        self.reload(item.id)

    def action_refresh(self) -> None:
        self.reload()

    def action_copy_id(self) -> None:
        item = self.current
        if item and item.id:
            copy(self.app, item.id, "the integration id")
