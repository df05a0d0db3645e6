"""The Textual app: start-up, the two views, errors, offline recovery, palette, keymap."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import LoadingIndicator, Static
from textual.worker import Worker, WorkerState

from inboxdesk.client import (
    AuthenticationError,
    InboxClient,
    InboxdeskError,
    NotFoundError,
    RetryPolicy,
    TransportError,
)
from inboxdesk.client.factory import client_for
from inboxdesk.config import ConfigError, Settings
from inboxdesk.models import Integration, Subscriber
from inboxdesk.tui.commands import AppCommands
from inboxdesk.tui.screens.help import HelpScreen
from inboxdesk.tui.screens.inbox import InboxScreen
from inboxdesk.tui.screens.integrations import IntegrationsScreen
from inboxdesk.tui.screens.picker import SubscriberPicker
from inboxdesk.tui.screens.problem import ProblemScreen

# The app answers a person: fail within seconds rather than retry for half a minute.
APP_RETRY = RetryPolicy(attempts=3, base=0.2, cap=1.0, deadline=6.0)
PROBE_SECONDS = 2.0


class InboxdeskApp(App[None]):
    # Absolute, so that subclasses elsewhere (benchmarks, scripts) find it too.
    CSS_PATH = Path(__file__).parent / "inboxdesk.tcss"
    TITLE = "inboxdesk"
    COMMANDS = {AppCommands}  # the palette's one provider (tui/commands.py)
    BINDINGS = [
        Binding(
            "question_mark,f1", "help", "Help", id="app.help", tooltip="Every key that applies here"
        ),
        Binding("q", "quit", "Quit", id="app.quit", tooltip="Leave inboxdesk"),
    ]

    def __init__(
        self,
        settings: Settings,
        client: InboxClient | None = None,
        subscriber_id: str | None = None,
        clock: Callable[[], datetime] | None = None,
        problem: str | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings
        self._client = client
        self.subscriber_id = subscriber_id or settings.subscriber
        self.clock = clock or (lambda: datetime.now(UTC))
        self.startup_problem = problem
        self.offline = False
        # Until the service has answered once, a failure is a start-up problem.
        self.connected = False
        self._problem_open = False
        self._probe: Timer | None = None
        self.subscribers: list[Subscriber] = []
        self.sub_title = settings.base_url

    @property
    def client(self) -> InboxClient:
        if self._client is None:
            self._client = client_for(self.settings, retry=APP_RETRY)
        return self._client

    def now(self) -> datetime:
        return self.clock()

    def compose(self) -> ComposeResult:
        yield Static(Text(f"inboxdesk: connecting to {self.settings.base_url}…"), id="connecting")
        yield LoadingIndicator()

    def on_mount(self) -> None:
        self._apply_settings()
        if self.startup_problem:
            self.push_screen(ProblemScreen("inboxdesk cannot start", self.startup_problem))
            return
        try:
            self.settings.require_key()
            self.client  # noqa: B018 - builds it now, so TLS file problems show here
        except ConfigError as exc:
            title = "No API key" if not self.settings.api_key else "The settings need a fix"
            self.push_screen(ProblemScreen(title, str(exc)))
            return
        self.action_connect()
        if self.settings.auto_refresh > 0:
            self.set_interval(self.settings.auto_refresh, self._refresh_on_timer)

    def _apply_settings(self) -> None:
        theme = self.settings.theme
        if theme:
            if theme in self.available_themes:
                self.theme = theme
            else:
                known = ", ".join(sorted(self.available_themes))
                self.notify(
                    f"Unknown theme {theme!r}; known: {known}.", severity="warning", markup=False
                )
        keymap = self.settings.keymap
        if keymap:
            unknown = sorted(set(keymap) - binding_ids())
            if unknown:
                self.notify(
                    f"Unknown binding ids in app.keymap: {', '.join(unknown)} "
                    "(the help screen lists them).",
                    severity="warning",
                    markup=False,
                )
            self.set_keymap({k: v for k, v in keymap.items() if k not in unknown})

    # -- start-up ----------------------------------------------------------------------

    def action_connect(self) -> None:
        self._problem_open = False
        while isinstance(self.screen, ProblemScreen):
            self.pop_screen()
        if self.is_screen_installed("inbox"):
            self.inbox().reload()
        else:
            self.connect()

    @work(exclusive=True, group="connect", exit_on_error=False)
    async def connect(self) -> None:
        """Open the inbox; with no subscriber given, the environment's first one."""
        subscriber_id = self.subscriber_id
        if subscriber_id:
            # Its own first requests (run together) tell whether key and service work.
            self._open_inbox(subscriber_id)
            return
        try:
            page = await self.client.list_subscribers(0, 100)
        except InboxdeskError as exc:
            self._startup_failed(exc)
            return
        self.connected = True
        self.subscribers = page.data
        self._open_inbox(page.data[0].subscriber_id if page.data else "")
        if not page.data:
            self.notify("This environment has no subscribers yet.", severity="warning")

    def _open_inbox(self, subscriber_id: str) -> None:
        self.install_screen(InboxScreen(subscriber_id), "inbox")
        self.install_screen(IntegrationsScreen(), "integrations")
        self.push_screen("inbox")
        if not self.subscribers:
            self.load_subscribers()

    def _startup_failed(self, error: InboxdeskError) -> None:
        # Several first requests fail together; one problem screen says it.
        if self._problem_open:
            return
        self._problem_open = True
        if isinstance(error, AuthenticationError):
            title = "The service rejected the API key"
        elif isinstance(error, TransportError):
            title = "The service is unreachable"
        else:
            title = "The service answered with an error"
        self.push_screen(ProblemScreen(title, error.message, error.hint))

    @work(exclusive=True, group="subscribers", exit_on_error=False)
    async def load_subscribers(self) -> None:
        """The first 100 subscribers, for the picker and the command palette."""
        try:
            self.subscribers = (await self.client.list_subscribers(0, 100)).data
        except InboxdeskError:
            return  # the picker loads its own list and reports problems there

    # -- views -------------------------------------------------------------------------

    def action_show_integrations(self) -> None:
        if self.is_screen_installed("integrations"):
            self.switch_screen("integrations")

    def action_show_inbox(self) -> None:
        if self.is_screen_installed("inbox"):
            self.switch_screen("inbox")

    def inbox(self) -> InboxScreen:
        screen = self.get_screen("inbox")
        assert isinstance(screen, InboxScreen)
        return screen

    def open_subscriber(self, subscriber_id: str | None) -> None:
        if not subscriber_id:
            return
        self.action_show_inbox()
        inbox = self.inbox()
        inbox.state.subscriber_id = subscriber_id
        inbox.state.selected.clear()
        inbox.state.last_change = None
        inbox.subscriber = None
        inbox.reload(keep_cursor=False)

    def action_pick_subscriber(self) -> None:
        self.push_screen(SubscriberPicker(self.client, self.subscribers), self.open_subscriber)

    def show_integration(self, integration_id: str) -> None:
        self.action_show_integrations()
        screen = self.get_screen("integrations")
        assert isinstance(screen, IntegrationsScreen)
        screen.select(integration_id)

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        title = {"inbox": "Inbox", "integrations": "Integrations"}.get(
            self.screen.id or "", "inboxdesk"
        )
        self.push_screen(HelpScreen(self.screen, title))

    # -- errors and recovery -----------------------------------------------------------

    def report(self, error: InboxdeskError) -> None:
        """Tell the user what failed and what to do; an unreachable service is probed."""
        if not self.connected and isinstance(error, AuthenticationError | TransportError):
            self._startup_failed(error)
            return
        if isinstance(error, TransportError):
            if not self.offline:
                self.offline = True
                self._show_connection()
                self.notify(
                    f"{error.message} Retrying every {PROBE_SECONDS:g} s; "
                    "your changes so far are saved on the service.",
                    title="Service unreachable",
                    severity="error",
                    timeout=8,
                    markup=False,
                )
                self._probe = self.set_interval(PROBE_SECONDS, self._check_service)
            return
        title = "Not found" if isinstance(error, NotFoundError) else "The service said no"
        self.notify(
            f"{error.message}\n{error.hint}".strip(),
            title=title,
            severity="error",
            timeout=8,
            markup=False,
        )

    def _show_connection(self) -> None:
        if self.is_screen_installed("inbox") and self.inbox().is_mounted:
            self.inbox().show_status()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A bug in a worker is reported, never a crash: workers run with exit_on_error off."""
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            error = event.worker.error
            self.notify(
                f"Unexpected error in {event.worker.name or 'a task'}: {error!r}. "
                "The app carries on; please report this.",
                title="Bug",
                severity="error",
                timeout=10,
                markup=False,
            )

    def _check_service(self) -> None:
        self.probe()

    @work(exclusive=True, group="probe", exit_on_error=False)
    async def probe(self) -> None:
        try:
            await self.client.list_subscribers(0, 1)
        except InboxdeskError:
            return
        self.offline = False
        self._show_connection()
        if self._probe is not None:
            self._probe.stop()
            self._probe = None
        self.notify("The service is back; refreshing.", title="Connected")
        for name in ("inbox", "integrations"):
            if self.is_screen_installed(name):
                screen = self.get_screen(name)
                if isinstance(screen, InboxScreen | IntegrationsScreen) and screen.is_mounted:
                    screen.reload()

    def _refresh_on_timer(self) -> None:
        if self.is_screen_installed("inbox") and not self.offline:
            inbox = self.inbox()
            if inbox.is_mounted:
                inbox.load_counts()
                if not inbox.state.selected and inbox.table.cursor_row < 10:
                    inbox.reload()

    # -- command palette ---------------------------------------------------------------

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for active in screen.active_bindings.values():
            binding = active.binding
            if binding.description and active.enabled and binding.action not in {"quit"}:
                yield SystemCommand(
                    binding.description,
                    binding.tooltip or binding.description,
                    partial(screen.run_action, binding.action),
                )
        yield SystemCommand("Inbox", "Switch to the inbox view", self.action_show_inbox)
        yield SystemCommand(
            "Integrations", "Switch to the integrations view", self.action_show_integrations
        )
        for subscriber in self.subscribers:
            yield SystemCommand(
                f"Open inbox: {subscriber.display_name} ({subscriber.subscriber_id})",
                "Jump to this subscriber's inbox",
                partial(self.open_subscriber, subscriber.subscriber_id),
                discover=False,
            )
        for item in self._known_integrations():
            yield SystemCommand(
                f"Show integration: {item.name} ({item.channel}, {item.provider_id})",
                "Jump to this integration",
                partial(self.show_integration, item.id or ""),
                discover=False,
            )

    def _known_integrations(self) -> list[Integration]:
        if not self.is_screen_installed("integrations"):
            return []
        screen = self.get_screen("integrations")
        return list(screen.items.values()) if isinstance(screen, IntegrationsScreen) else []

    async def on_unmount(self) -> None:
        if self._client is not None:
            await self._client.aclose()


def binding_ids() -> set[str]:
    """Every binding id the app defines: the names a keymap may use."""
    from inboxdesk.tui.screens.confirm import ConfirmScreen
    from inboxdesk.tui.widgets.keyed_table import KeyedTable

    owners: list[type[object]] = [
        InboxdeskApp,
        InboxScreen,
        IntegrationsScreen,
        HelpScreen,
        ProblemScreen,
        SubscriberPicker,
        ConfirmScreen,
        KeyedTable,
    ]
    return {
        b.id
        for owner in owners
        for b in getattr(owner, "BINDINGS", [])
        if isinstance(b, Binding) and b.id
    }


def make_app(
    settings: Settings,
    client: InboxClient | None = None,
    subscriber_id: str | None = None,
    clock: Callable[[], datetime] | None = None,
) -> InboxdeskApp:
    """The app, as the command line, tests and the screenshot script build it."""
    return InboxdeskApp(settings, client, subscriber_id, clock)


__all__ = ["InboxdeskApp", "make_app"]
