"""The `:` line (decision 122): a one-line box whose grammar is core/command_line.py's,
completing names as typed (environments, views, aliases, subscribers seen)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, cast

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen, Screen
from textual.suggester import Suggester
from textual.widgets import Input

from inboxdesk.config.file import ConfigFile
from inboxdesk.config.values import ConfigError
from inboxdesk.core.command_line import (
    Activity,
    Command,
    Env,
    LineError,
    OpenView,
    SaveView,
    Sub,
    Txn,
    completions,
    parse,
)
from inboxdesk.core.views import View, ViewError, make_view, read_view
from inboxdesk.text import clip, safe
from inboxdesk.tui.messages import OpenSubscriber

if TYPE_CHECKING:
    from inboxdesk.config import Settings
    from inboxdesk.tui.context import ViewContext
    from inboxdesk.tui.environments import HeldKeys


class LineHost(Protocol):
    """What the line acts on: the App, as far as the line uses it (the App is one; the
    line names no App class, so the App may import the line)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def held_keys(self) -> HeldKeys: ...

    @property
    def context(self) -> ViewContext: ...

    @property
    def screen(self) -> Screen[object]: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...

    def open_subscriber(self, subscriber_id: str | None) -> None: ...

    async def action_switch_environment(
        self, environment_id: str | None = None, then: Callable[[], object] | None = None
    ) -> None: ...

    def call_later(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool: ...


class LineSuggester(Suggester):
    """The first completion of what is typed; the names are read when asked, so a view
    saved a moment ago completes."""

    def __init__(self, names: Callable[[], dict[str, Sequence[str]]]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.names = names

    async def get_suggestion(self, value: str) -> str | None:
        found = completions(value, **self.names())
        return found[0] if found else None


class CommandLine(ModalScreen[str | None]):
    """The line; Enter hands it back, Escape leaves without a change."""

    DEFAULT_CSS = """
    CommandLine { align: left bottom; }
    CommandLine > Input { width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape",
            "leave",
            "Leave",
            show=False,
            id="command_line.leave",
            tooltip="Close the line; nothing is run",
        )
    ]

    def __init__(self, names: Callable[[], dict[str, Sequence[str]]]) -> None:
        super().__init__()
        self.names = names

    def compose(self) -> ComposeResult:
        yield Input(
            value=":",
            placeholder=":sub ID · :env NAME · :activity failed sms 1h · :view save NAME · :txn ID",
            suggester=LineSuggester(self.names),
            select_on_focus=False,  # the colon stays: what is typed follows it
            id="command-line",
        )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_leave(self) -> None:
        self.dismiss(None)


def config_views() -> tuple[dict[str, Any], dict[str, str], ConfigFile]:
    """The config file's views (each read when opened) and aliases, read anew each time:
    a view saved by another run shows up."""
    config = ConfigFile.load(warn=False)
    return dict(config.views()), dict(config.aliases()), config


async def run_line(app: LineHost, text: str) -> None:
    """Do what the line says; a bad line says what it expected and changes nothing."""
    try:
        views, aliases, config = config_views()
        command = parse(text, views, aliases)
        if isinstance(command, OpenView):
            await _open_view(app, read_view(command.name, views[command.name]))
        elif isinstance(command, SaveView):
            _save_view(app, config, command.name)
        else:
            await _run(app, command)
    except (LineError, ViewError, ConfigError) as exc:
        app.notify(safe(str(exc), newlines=False), severity="error", markup=False)


async def _run(app: LineHost, command: Command) -> None:
    if isinstance(command, Sub):
        app.open_subscriber(command.subscriber_id)
    elif isinstance(command, Env):
        held = app.held_keys.keyring.named(command.name)
        if held is None:
            raise LineError(
                f"no key for an environment '{command.name}'; expected one of: "
                f"{app.held_keys.keyring.held_names()}"
            )
        await app.action_switch_environment(held.environment_id)
    elif isinstance(command, Txn):
        from inboxdesk.tui.activity.timeline import open_delivery

        open_delivery(
            _screen(app), app.context, app.context.subscriber.value, command.transaction_id
        )
    elif isinstance(command, Activity):
        _show_activity(
            app,
            command.subscriber,
            command.window,
            command.failed,
            command.channel,
            command.filters.get("workflow"),
            command.grouping is not None,
        )


def _show_activity(
    app: LineHost,
    subscriber: str | None,
    window: str | None,
    failed: bool,
    channel: str | None,
    workflow: str | None,
    grouped: bool,
) -> None:
    from inboxdesk.tui.activity.opening import ACTIVITY
    from inboxdesk.tui.activity.screen import ShowFilters

    filters = ShowFilters(subscriber, window, failed, channel, workflow, grouped)
    app.context.open(ACTIVITY, filters)  # its mode, built the first time


def _screen(app: LineHost) -> Screen[None]:
    return cast("Screen[None]", app.screen)


async def _open_view(app: LineHost, view: View) -> None:
    """A view opens in its environment, with its key (or names the missing one); in
    another environment, once the switch has opened that environment's inbox."""
    keyring = app.held_keys.keyring
    if view.environment_id and view.environment_id != app.held_keys.held.environment_id:
        if keyring.of(view.environment_id) is None:
            raise ViewError(
                f"view '{view.name}' is of the environment {view.where()} "
                f"({view.environment_id}), and no key for it is held: "
                "add one with `inboxdesk config add-key`"
            )
        await app.action_switch_environment(view.environment_id, partial(_show_view, app, view))
        return
    _show_view(app, view)


def _show_view(app: LineHost, view: View) -> None:
    """The view's screen with its filters, in the environment acted in."""
    if view.kind == "inbox":
        # Nothing while not connected (a problem screen says why).
        app.context.open("inbox", OpenSubscriber(view.subscriber or "", view.tab))
        return
    _show_activity(
        app,
        None if view.everyone else view.subscriber or app.context.subscriber.value,
        view.window,
        view.failed,
        view.channel,
        view.workflow,
        view.grouping is not None,
    )


def _save_view(app: LineHost, config: ConfigFile, name: str) -> None:
    from inboxdesk.tui.activity.screen import ActivityScreen

    held = app.held_keys.held
    where = {
        "profile": app.settings.profile,
        "environment_id": held.environment_id or None,
        "environment": held.name or None,
    }
    screen = app.screen
    if isinstance(screen, ActivityScreen):
        view = make_view(
            name,
            "activity",
            **where,
            everyone=screen.everyone,
            subscriber=None if screen.everyone else screen.subscriber_id,
            window=screen.window if screen.everyone else None,
            channel=screen.filters.channel,
            workflow=screen.filters.workflow,
            failed=screen.filters.failed,
            grouping="cause" if screen.grouped else None,
        )
    else:
        view = make_view(name, "inbox", **where, subscriber=app.context.subscriber.value)
    config.put_view(name, view.to_table())
    config.save()
    app.notify(f"Saved the view {name}: open it with :{name}", markup=False)


def view_commands(app: LineHost) -> list[SystemCommand]:
    """The palette's entry of each saved view and alias: it runs `:NAME`."""
    try:
        views, aliases, _ = config_views()
    except ConfigError:
        return []
    return [
        SystemCommand(
            f"Open view: {clip(name, 40)}" if name in views else f"Run alias: {clip(name, 40)}",
            f"The saved {'view' if name in views else 'alias'} :{clip(name, 40)}",
            partial(app.call_later, run_line, app, f":{name}"),
        )
        for name in [*views, *(a for a in aliases if a not in views)]
    ]
