"""The Textual app: start-up, the two views, errors, offline recovery, palette, keymap."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult, ScreenStackError, SystemCommand
from textual.binding import Binding
from textual.command import Provider
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.reactive import Reactive
from textual.screen import Screen
from textual.signal import Signal
from textual.timer import Timer
from textual.widgets import LoadingIndicator, Static
from textual.worker import Worker, WorkerState

from inboxdesk.client import InboxClient, InboxdeskError, RetryPolicy, TransportError
from inboxdesk.client.errors import transient
from inboxdesk.config import ConfigError, Settings
from inboxdesk.config.connect import plain_http_warning
from inboxdesk.config.keys import read_only_reason
from inboxdesk.core.inbox import loading as loader
from inboxdesk.models import Subscriber
from inboxdesk.private_apis import (
    count_parameters_from_code,
    find_handlers_once_per_class,
    lays_out_once,
    lays_out_when_needed,
)
from inboxdesk.text import clip, safe
from inboxdesk.tui.appearance import apply_appearance
from inboxdesk.tui.collector import Collector
from inboxdesk.tui.context import WRITE_ACTIONS, ViewContext, Watched
from inboxdesk.tui.environments import (
    HeldKeys,
    explained,
    header_environment,
    reopen_on,
    switch_target,
)
from inboxdesk.tui.error_titles import error_title
from inboxdesk.tui.messages import (
    FirstRowsShown,
    OpenPreferences,
    OpenSubscriber,
    Reload,
    SelectIntegration,
    ServiceAnswered,
    SubscribersListed,
)
from inboxdesk.tui.modes import INBOX, Views, title_of
from inboxdesk.tui.screens.problem import ProblemScreen
from inboxdesk.writes.model import Where

if TYPE_CHECKING:
    from inboxdesk.scope import Scope
    from inboxdesk.tui.subscriber.keys import OpenSubscriberView
    from inboxdesk.writes import Event, Outbox, WriteStore

# Textual's handlers found once per class, a callback's parameters counted from its code.
find_handlers_once_per_class()
count_parameters_from_code()

# The help, picker, confirmation and integrations screens, and the palette's commands,
# are imported when first opened: the first inbox page needs none of them.

# The app answers a person: fail within seconds rather than retry for half a minute.
APP_RETRY = RetryPolicy(attempts=3, base=0.2, cap=1.0, deadline=6.0)
PROBE_SECONDS = 2.0
# An end asked while a screen mounts waits for it, this often, this long at most.
EXIT_STEP = 0.01
EXIT_WAIT = 2.0


@lays_out_once
@lays_out_when_needed
class Connecting(Screen[None]):
    """The App's own screen ("connecting to …", a start-up problem's background): laid
    out as it is first shown, and again only when its size or its content asks (the
    first frame's size comes twice more as Resize events, each a layout in Textual)."""


def _app_commands() -> type[Provider]:
    from inboxdesk.tui.commands import AppCommands

    return AppCommands


class InboxdeskApp(App[None]):
    # Absolute, so that subclasses elsewhere (benchmarks, scripts) find it too.
    CSS_PATH = Path(__file__).parent / "inboxdesk.tcss"
    TITLE = "inboxdesk"
    COMMANDS = {_app_commands}  # the palette's one provider, loaded when first opened
    BINDINGS = [
        Binding(
            "question_mark,f1", "help", "Help", id="app.help", tooltip="Every key that applies here"
        ),
        Binding("q", "quit", "Quit", id="app.quit", tooltip="Leave inboxdesk"),
        Binding(
            "colon",
            "command_line",
            ":",
            id="app.command_line",
            show=False,
            tooltip=":sub ID, :env NAME, :activity failed sms 1h, :view save NAME, :txn ID, "
            ":VIEW or :ALIAS",
        ),
        Binding(
            "ctrl+e",
            "switch_environment",
            "Environment",
            id="app.environment",
            show=False,
            tooltip="Act in the next environment whose key the profile holds",
        ),
    ]

    # Shown by the header, which watches them: Textual repaints the whole screen too.
    title: Reactive[str] = Reactive("", compute=False, repaint=False)
    sub_title: Reactive[str] = Reactive("", compute=False, repaint=False)

    probe_seconds = PROBE_SECONDS  # between probes while the service is away
    settle_seconds = 3.0  # the collector's pause ends then if no rows came (slow, a problem)

    def __init__(
        self,
        settings: Settings,
        client: InboxClient | None = None,
        subscriber_id: str | None = None,
        clock: Callable[[], datetime] | None = None,
        problem: str | None = None,
        writes: WriteStore | None = None,
    ) -> None:
        super().__init__()
        # Every view is a mode, built from the view context on first use.
        self.views = Views(self, lambda: self.context)
        self.settings = settings
        self._client = client
        self._held_keys: HeldKeys | None = None
        self._writes = writes
        self._outbox: Outbox | None = None
        self._view_context: ViewContext | None = None
        # Every write's outcome as the outbox hands it on: the App and the views
        # subscribe alike (ViewContext.writes).
        self.write_outcomes: Signal[Event] = Signal(self, "writes")
        # True while the service is unreachable; views watch it to show it and to resend.
        self.service_away: Watched[bool] = Watched(self, "offline", False)
        # The organization's environments and the key's own; the header names the latter.
        self.environments: Watched[Scope | None] = Watched(self, "scope", None)
        self.current_subscriber: Watched[str | None] = Watched(self, "subscriber", None)
        self.subscriber_id = subscriber_id or settings.subscriber
        self.clock = clock or (lambda: datetime.now(UTC))
        self.startup_problem = problem
        # Until the service has answered once, a failure is a start-up problem.
        self.connected = False
        self._problem_open = False
        self._probe: Timer | None = None
        self._offered: set[str] = set()  # queued writes already offered
        self._said: set[str] = set()  # problems of the journal already said
        self.subscribers: list[Subscriber] = []
        self._collector = Collector()
        self._settled = False
        self.sub_title = clip(settings.base_url, 80)

    @property
    def offline(self) -> bool:
        return self.service_away.value

    @property
    def scope(self) -> Scope | None:
        return self.environments.value

    @property
    def held_keys(self) -> HeldKeys:
        """The keys held, one per environment, and the one the app acts with."""
        if self._held_keys is None:
            self._held_keys = HeldKeys(self.settings, APP_RETRY, self._client)
        return self._held_keys

    @property
    def client(self) -> InboxClient:
        return self.held_keys.client

    def now(self) -> datetime:
        return self.clock()

    @property
    def outbox(self) -> Outbox:
        """The one outbox of every write the app makes."""
        if self._outbox is None:
            # Opened when first used (the scope's queued writes, a write), after the
            # first frame: the first frame needs neither its modules nor its store.
            from inboxdesk.writes import Outbox, open_store

            if self._writes is None:
                from inboxdesk.paths import writes_path

                keep = self.settings.history_days, self.settings.history_entries
                self._writes, problem = open_store(writes_path(), *keep)
                if problem:
                    self.notify(problem, severity="warning", timeout=15, markup=False)
            # Filed as the environment unknown: _scope_changed moves it (move_to).
            where = self._where(None)
            self._outbox = Outbox(
                self.client,
                where,
                self._writes,
                clock=self.now,
                client_of=self.held_keys.client_of,
            )
            # Sends and queues nothing while the environment acted in (or the run) is
            # read-only: asked at each write, so that it follows ctrl+e both ways.
            self._outbox.read_only_of = lambda: self.read_only is not None
            self._outbox.listen(self.write_outcomes.publish)
        return self._outbox

    def _where(self, scope: Scope | None) -> Where:
        own = (self.held_keys.held.environment_id or scope.own_id) if scope else None
        return Where.of(self.settings.profile, self.settings.base_url, own)

    @property
    def context(self) -> ViewContext:
        """What every view is handed: client, outbox, clock, reporting."""
        if self._view_context is None:
            self._view_context = ViewContext(
                client=self.client,
                outbox_of=lambda: self.outbox,
                clock=self.now,
                report=self.report,
                writes=self.write_outcomes,
                offline=self.service_away,
                scope=self.environments,
                subscriber=self.current_subscriber,
                open=self.views.open,
                auto_refresh=self.settings.auto_refresh,
                follow_grace=self.settings.follow_grace,
                follow_limit=self.settings.follow_limit,
                keys=self.held_keys,
                read_only_of=lambda: self.read_only,
            )
        return self._view_context

    def on_load(self) -> None:
        self._collector.start()  # before the first frame (tui/collector.py)
        self.set_timer(self.settle_seconds, self._collector.settle)

    def settled(self) -> None:
        """Start-up is over (first page and detail pane built, or no page to come): what it
        built is frozen (tui/collector.py), and the environment's subscribers are listed
        for the picker and the palette."""
        if not self._settled:
            self._settled = True
            self._collector.settle()
            if not self.subscribers:
                self.load_subscribers()
            # After the first frame: the header's environment is not part of it.
            self.call_after_refresh(self.show_environment, self.scope)
            if self.scope is None:
                self.load_scope()

    # -- the sinks of text that reaches the terminal ---------------------------------

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header's text: every title and sub-title is made safe where it is set
        (tests/test_architecture.py checks that), and here again, where all are drawn."""
        return super().format_title(safe(title, newlines=False), safe(sub_title, newlines=False))

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notice, of the app and of each screen and widget, made safe once more."""
        super().notify(
            safe(message),
            title=safe(title, newlines=False),
            severity=severity,
            timeout=timeout,
            markup=markup,
        )

    def get_default_screen(self) -> Screen[None]:
        return Connecting(id="_default")

    def compose(self) -> ComposeResult:
        yield Static(Text(f"inboxdesk: connecting to {self.settings.base_url}…"), id="connecting")
        if not self.subscriber_id:
            # Only a search for the first subscriber waits here; with one given, the
            # inbox covers this screen at once, and the indicator's restyles and
            # animation would only delay its first rows.
            yield LoadingIndicator()

    def on_mount(self) -> None:
        # The App hears of each write's outcome as the views do, and of the environments.
        self.write_outcomes.subscribe(self, self._write_done)
        self.environments.watch(self, self._scope_changed)
        for problem in apply_appearance(self, self.settings.theme, self.settings.keymap):
            self._warn(problem)
        if self.startup_problem:
            self.push_screen(ProblemScreen("inboxdesk cannot start", self.startup_problem, "", 2))
            return
        try:
            self.client  # noqa: B018 - builds it now, so key and TLS file problems show here
            if (warning := plain_http_warning(self.settings)) is not None:
                self._warn(warning)
        except ConfigError as exc:
            held = self.settings.api_key or self.settings.environments
            title = "No API key" if not held else "The settings need a fix"
            self.push_screen(ProblemScreen(title, str(exc), "", 2))
            return
        self.action_connect()

    def _warn(self, text: str) -> None:
        self.notify(text, severity="warning", timeout=15, markup=False)

    # -- start-up ----------------------------------------------------------------------

    def action_connect(self) -> None:
        self._problem_open = False
        while isinstance(self.screen, ProblemScreen):
            self.pop_screen()
        if (inbox := self.views.built(INBOX)) is not None:
            inbox.post_message(Reload())  # it owns what it shows
        else:
            self.connect()

    @work(exclusive=True, group="connect", exit_on_error=False)
    async def connect(self) -> None:
        """Open the inbox; with no subscriber given, the environment's first one."""
        if self.subscriber_id:
            # Its first requests tell whether key and service work (loader.first_page).
            first = await loader.first_page(self.client, self.subscriber_id)
            self.post_message(SubscribersListed(None, self.subscriber_id, first))
            return
        page = await self.client.search_subscribers(limit=100)
        self.post_message(
            SubscribersListed(page.data, page.data[0].subscriber_id if page.data else "")
        )

    def on_subscribers_listed(self, event: SubscribersListed) -> None:
        if event.subscribers is not None:
            self.connected = True
            self.subscribers = event.subscribers
            if not event.subscribers:
                self.notify("This environment has no subscribers yet.", severity="warning")
        if event.open is not None and self.views.built(INBOX) is None:
            self.views.start(event)
            # The picker's list is loaded once start-up is over (`settled`).

    def _startup_failed(self, error: InboxdeskError) -> None:
        # Several first requests fail together; one problem screen says it.
        if self._problem_open:
            return
        self._problem_open = True
        self.push_screen(ProblemScreen(error_title(error, True), error.message, error.hint))

    @work(exclusive=True, group="scope", exit_on_error=False)
    async def load_scope(self) -> None:
        """The environments and the key's own, for the header."""
        from inboxdesk.scope import load_scope  # after the first frame, as its Scope

        try:
            scope = await load_scope(self.client)
        except InboxdeskError:
            return  # the header keeps "environment unknown"; the next view load retries
        self.environments.set(scope)

    def _scope_changed(self, scope: Scope | None) -> None:
        """The header says which profile and environment the app acts as; writes queued
        in an earlier session for them are offered."""
        if scope is None:
            return  # an environment switch: loaded again with the new key
        was = self.read_only
        self.held_keys.learn(scope.own)
        if self.read_only != was:
            # A key given alone is now known to act in a read-only environment: its
            # views unbind the write keys, as for a read-only run.
            for screen in self.views.screens():
                screen.refresh_bindings()
        self.show_environment(scope)
        self.outbox.move_to(self._where(scope))
        self._offer_queued()

    @property
    def read_only(self) -> str | None:
        """The setting that makes this run read-only (the settings', or the environment
        acted in), as one would write it; None if writes are allowed."""
        return read_only_reason(self.settings, self.held_keys.held)

    def exit(
        self,
        result: None = None,
        return_code: int = 0,
        message: RenderableType | None = None,
        *,
        waited: float = 0.0,
    ) -> None:
        """End the app, once the screen it shows has mounted: ending prunes every
        screen's widgets, and a screen still mounting (`q`, SIGTERM or SIGHUP in the
        first instants) would run its on_mount on none of them and crash."""
        try:
            mounting = self.is_running and not self.screen.is_mounted
        except ScreenStackError:  # before the first screen
            mounting = False
        if not mounting or waited >= EXIT_WAIT:
            super().exit(result, return_code, message)
            return
        # Asked again a moment later, on the loop itself: a message or a timer of the
        # app would wait behind the mount.
        asyncio.get_running_loop().call_later(
            EXIT_STEP,
            functools.partial(self.exit, result, return_code, message, waited=waited + EXIT_STEP),
        )

    def show_environment(self, scope: Scope | None = None) -> None:
        """The header: the profile and the environment acted in (after the first frame)."""
        where = header_environment(self.held_keys.held, scope)
        mark = " · read-only" if self.read_only is not None else ""
        profile = clip(self.settings.profile or "no profile", 20)
        self.title = safe(f"inboxdesk · {profile} · {where}{mark}", newlines=False)

    def on_first_rows_shown(self, event: FirstRowsShown) -> None:
        self.settled()

    def _offer_queued(self) -> None:
        if (held := self.outbox.held_note()) and held not in self._said:
            self._said.add(held)
            self._warn(held)
        earlier = [w for w in self.outbox.queued() if w.id not in self._offered]
        if not earlier or self.offline:
            return
        self._offered.update(w.id for w in earlier)
        from inboxdesk.tui.screens.queued import QueuedWritesScreen

        offer = QueuedWritesScreen(earlier, self.now(), self.outbox, self.flush_writes)
        self.push_screen(offer.read_only_as(self.context.read_only))

    @work(exclusive=True, group="subscribers", exit_on_error=False)
    async def load_subscribers(self) -> None:
        """The first 100 subscribers, for the picker and the command palette."""
        try:
            page = await self.client.search_subscribers(limit=100)
        except InboxdeskError:
            return  # the picker loads its own list and reports problems there
        self.post_message(SubscribersListed(page.data, None))

    def on_key(self, event: events.Key) -> None:
        """In a read-only run the write keys are not bound: one pressed all the same is
        told why nothing happened, rather than doing nothing without a word."""
        reason = self.context.read_only if self.views.built(INBOX) is not None else None
        if reason is None:
            return
        for binding in self.screen.BINDINGS:
            if not isinstance(binding, Binding) or binding.action not in WRITE_ACTIONS:
                continue
            keys = self.settings.keymap.get(binding.id or "", binding.key)
            if event.key in (k.strip() for k in keys.split(",")):
                event.stop()
                self.notify(
                    f"Read-only ({reason}): {binding.description or binding.action} is off.",
                    severity="warning",
                    markup=False,
                )
                return

    # -- environments (tui/environments.py) -------------------------------------------

    async def action_switch_environment(
        self, environment_id: str | None = None, then: Callable[[], object] | None = None
    ) -> None:
        """Act in another environment with a key: the views are built again with its
        key, on the same subscriber where that environment has one; `then` runs once
        the new environment's inbox is open (a saved view opened there)."""
        try:
            keys = self.held_keys
        except ConfigError:
            # No key, or settings that name none (the problem screen says which): there is
            # no environment to switch from or to until they are fixed.
            self.notify(
                "No environment to switch to: fix the settings first (see above).",
                severity="warning",
                markup=False,
            )
            return
        queued = len(self._outbox.queued()) if self._outbox is not None else 0
        # Integrations and History come back in the new environment: a switch there is
        # made to see that view in it, not the inbox.
        mode = self.current_mode
        back_to = mode if mode in ("integrations", "history") else None
        connected = self.views.built(INBOX) is not None
        target = switch_target(self, keys, environment_id, queued, connected)
        if target is None:
            return
        shown = self.current_subscriber.value
        await self.views.reset()  # each view built again, with the new key, when opened
        keys.held, self._view_context, self.subscribers = target, None, []
        self.environments.set(None)  # the new key's environments, loaded again
        if self._outbox is not None:
            outbox = self._outbox
            outbox.where = Where.of(
                self.settings.profile, self.settings.base_url, target.environment_id
            )
            outbox.client, outbox.fingerprint = (
                self.client,
                self.client.key_fingerprint(outbox.store.secret),
            )
        self.show_environment()
        self.reopen(shown or self.subscriber_id, back_to, then)

    @work(exclusive=True, group="connect", exit_on_error=False)
    async def reopen(
        self,
        subscriber_id: str | None,
        back_to: str | None = None,
        then: Callable[[], object] | None = None,
    ) -> None:
        """After a switch: the same subscriber, or the environment's first and the picker;
        then the view the switch was made from (`back_to`), after the inbox is open."""
        listed, first, found = await reopen_on(self, self.client, subscriber_id)
        self.post_message(SubscribersListed(listed, first))
        self.load_scope()
        if then is not None:
            # Queued after SubscribersListed, whose handler installs the inbox.
            self.call_later(then)
        if back_to == "integrations":
            self.call_later(self.action_show_integrations)
        elif back_to == "history":
            self.call_later(self.action_show_history)
        if not found:
            self.call_later(self.action_pick_subscriber)

    # -- views -------------------------------------------------------------------------

    def action_show_integrations(self) -> None:
        self.views.open("integrations")  # nothing before the inbox is open

    def action_show_history(self) -> None:
        self.views.open("history")

    def action_show_inbox(self) -> None:
        self.views.open(INBOX)

    def open_subscriber(self, subscriber_id: str | None) -> None:
        if subscriber_id:
            self.views.open(INBOX, OpenSubscriber(subscriber_id))

    def action_command_line(self) -> None:
        """The `:` line (tui/command_line.py), where no text box has focus."""
        from inboxdesk.tui.command_line import CommandLine, config_views, run_line

        def names() -> dict[str, Sequence[str]]:
            try:
                views, aliases, _ = config_views()
            except ConfigError:
                views, aliases = {}, {}
            keys = self.held_keys.keyring.keys
            return {
                "environments": [k.name or k.environment_id for k in keys],
                "views": list(views),
                "aliases": list(aliases),
                "subscribers": [s.subscriber_id for s in self.subscribers],
            }

        async def ran(line: str | None) -> None:
            if line:
                await run_line(self, line)

        self.push_screen(CommandLine(names), ran)

    def action_pick_subscriber(self) -> None:
        from inboxdesk.tui.screens.picker import SubscriberPicker

        self.push_screen(SubscriberPicker(self.client, self.subscribers), self.open_subscriber)

    def show_integration(self, integration_id: str) -> None:
        self.views.open("integrations", SelectIntegration(integration_id))

    def on_open_preferences(self, event: OpenPreferences) -> None:
        from inboxdesk.tui.preferences.opening import open_preferences

        open_preferences(
            self, self.context, event.subscriber_id, event.workflow, event.channel, event.context
        )

    def on_open_subscriber_view(self, event: OpenSubscriberView) -> None:
        from inboxdesk.tui.subscriber.opening import open_subscriber_view

        open_subscriber_view(self, self.context, event.subscriber_id, event.field)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The palette's entries (tui/commands.py), each once."""
        from inboxdesk.tui.commands import palette
        from inboxdesk.tui.integrations.screen import IntegrationsScreen

        found = self.views.built("integrations")
        items = list(found.items.values()) if isinstance(found, IntegrationsScreen) else []
        textuals = super().get_system_commands(screen)
        connected = self.views.built(INBOX) is not None
        others = self.held_keys.switchable() if connected else []
        from inboxdesk.tui.command_line import view_commands

        listed = palette(self, screen, textuals, self.subscribers, items, others)
        return chain(listed, view_commands(self))

    def action_help(self) -> None:
        from inboxdesk.tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.screen, title_of(self.screen.id)))

    # -- errors and recovery -----------------------------------------------------------

    def report(self, error: InboxdeskError) -> None:
        """Tell the user what failed and what to do; an unreachable service is probed."""
        if not self.connected:
            # Nothing shown yet: any failure is a start-up problem, which `r` retries.
            self._startup_failed(error)
            return
        if isinstance(error, TransportError):
            self._went_away(error.message)
            return
        self.notify(
            f"{error.message}\n{error.hint}".strip(),
            title=error_title(error),
            severity="error",
            timeout=8,
            markup=False,
        )

    def _went_away(self, why: str) -> None:
        """The service is unreachable: say so once, and probe until it is back."""
        if self.offline:
            return
        self._set_offline(True)
        self.notify(
            f"{why} Retrying every {self.probe_seconds:g} s. Marks pressed "
            "meanwhile are queued and sent, in order, when it is back.",
            title="Service unreachable",
            severity="error",
            timeout=8,
            markup=False,
        )
        self._probe = self.set_interval(self.probe_seconds, self.probe)

    def on_service_answered(self, event: ServiceAnswered) -> None:
        self.connected = True

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        """Every worker's failure, reported here: the service's errors say what to do,
        anything else is a bug, reported rather than a crash (exit_on_error is off)."""
        if event.state != WorkerState.ERROR or event.worker.error is None:
            return
        error = event.worker.error
        if isinstance(error, InboxdeskError):
            self.report(error)
        else:
            self.notify(
                f"Unexpected error in {event.worker.name or 'a task'}: {error!r}. "
                "The app carries on; please report this.",
                title="Bug",
                severity="error",
                timeout=10,
                markup=False,
            )

    @work(exclusive=True, group="probe", exit_on_error=False)
    async def probe(self) -> None:
        try:
            await self.client.search_subscribers(limit=1)
        except InboxdeskError as error:
            if transient(error):
                return  # still away, or saying "not now"; any other answer: it is up
        if self._probe is not None:
            self._probe.stop()
            self._probe = None
        self.notify("The service is back; refreshing.", title="Connected")
        # The views watch `offline` and refresh themselves; the queued writes go out.
        self._set_offline(False)

    def _set_offline(self, offline: bool) -> None:
        """The service went away or came back: the outbox queues or sends, the views
        (watching `offline`) show it and load again."""
        self.outbox.away = offline
        if not offline:
            self.flush_writes()
        self.service_away.set(offline)

    @work(exclusive=True, group="flush", exit_on_error=False)
    async def flush_writes(self) -> None:
        """The queued writes, in the order they were made (their events say the rest)."""
        await self.outbox.flush()

    # -- writes ------------------------------------------------------------------------

    def _write_done(self, event: Event) -> None:
        """Say what became of a write (each view redraws what it shows of it)."""
        from inboxdesk.tui.write_notices import notice
        from inboxdesk.writes import Failed, Queued

        if isinstance(event, Failed):
            # A refused switch is said as what it means: the key went to another
            # environment than the integration's.
            event = replace(event, error=explained(event, self.held_keys, self.scope))
        problem = self.outbox.store.problem
        if problem and problem not in self._said:
            self._said.add(problem)
            self._warn(problem)
        said = notice(event)
        if said is not None:
            text, severity = said
            title = "Queued" if isinstance(event, Queued) else None
            self.notify(text, title=title or "", severity=severity, timeout=8, markup=False)  # type: ignore[arg-type]
        if isinstance(event, Failed):
            # A kind's own notice of a failure says why in full (a switch's); an
            # unreachable service is probed.
            if said is None or isinstance(event.error, TransportError):
                self.report(event.error)
        elif isinstance(event, Queued) and self.outbox.away:
            self._went_away("The service is unreachable.")

    async def action_quit(self) -> None:
        """Quit; with writes still queued, ask first (they are kept for the next start)."""
        # Opened here if not yet (no write, environment unknown): earlier ones count.
        queued = len(self.outbox.queued()) if self._view_context is not None else 0
        if not queued:
            self.exit()
            return
        from inboxdesk.tui.screens.queued import quit_question

        self.push_screen(quit_question(queued), lambda yes: self.exit() if yes else None)

    async def on_unmount(self) -> None:
        self._collector.stop()
        if self._held_keys is not None:
            await self._held_keys.aclose()
        elif self._client is not None:
            await self._client.aclose()
        if self._writes is not None:
            self._writes.close()


def make_app(
    settings: Settings,
    client: InboxClient | None = None,
    subscriber_id: str | None = None,
    clock: Callable[[], datetime] | None = None,
    writes: WriteStore | None = None,
) -> InboxdeskApp:
    """The app, as the command line, tests and the screenshot script build it."""
    return InboxdeskApp(settings, client, subscriber_id, clock, writes=writes)


__all__ = ["InboxdeskApp", "make_app"]
