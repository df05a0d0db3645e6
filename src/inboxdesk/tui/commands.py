"""The command palette: the view's own keys, the views, subscribers and integrations.

The entries come through `App.get_system_commands` (the App adds its own); this
provider replaces Textual's so that a command shows once (a key bound to several keys
or widgets gave one entry per key). A command is found by the words of its name or of its help
("subscr" finds "Switch subscriber"). Names are shown as rich `Text`, never as markup,
since subscriber and integration names come from the wire.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import chain
from typing import Any

from rich.text import Text
from textual.app import App, SystemCommand
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape
from textual.screen import Screen

from inboxdesk.config.keys import HeldKey
from inboxdesk.models import Integration, Subscriber
from inboxdesk.text import clip, safe

# Actions the palette offers as views, not as keys of the current view.
VIEW_ACTIONS = frozenset(
    {"app.show_inbox", "app.show_integrations", "app.show_history", "show_inbox"}
)
# A match in the help text ranks below one in the name.
HELP_WEIGHT = 0.6


def view_keys(app: App[Any], screen: Screen[object]) -> Iterator[SystemCommand]:
    """The current view's own keys (those with an id), once per action."""
    seen: set[tuple[int, str]] = set()
    for node, binding, enabled, tooltip in screen.active_bindings.values():
        if not (binding.id and binding.description and enabled):
            continue
        # Views are offered as commands of their own; Textual's entries include Quit.
        if binding.action in VIEW_ACTIONS or binding.action in {"quit", "app.quit"}:
            continue
        if (id(node), binding.action) in seen:
            continue
        seen.add((id(node), binding.action))
        key = app.get_key_display(binding)
        help_text = f"{tooltip or binding.tooltip or binding.description} (key {key})"
        yield SystemCommand(
            binding.description, help_text, partial(app.run_action, binding.action, node)
        )


def subscriber_commands(
    subscribers: Iterable[Subscriber], open_subscriber: Callable[[str], object]
) -> Iterator[SystemCommand]:
    for subscriber in subscribers:
        who, subscriber_id = clip(subscriber.display_name, 40), clip(subscriber.subscriber_id, 40)
        yield SystemCommand(
            f"Open inbox: {who} ({subscriber_id})",
            "Switch subscriber: open this subscriber's inbox",
            partial(open_subscriber, subscriber.subscriber_id),
            discover=False,
        )


def environment_commands(
    environments: Iterable[HeldKey], run_action: Callable[[str], object]
) -> Iterator[SystemCommand]:
    for held in environments:
        # The id is hex (the service's ObjectId): safe inside the action's text.
        action = f"app.switch_environment({held.environment_id!r})"
        yield SystemCommand(
            f"Switch environment: {clip(held.label, 40)}",
            "Act in this environment, with its key (ctrl+e: the next one)",
            partial(run_action, action),
        )


def integration_commands(
    items: Iterable[Integration], show_integration: Callable[[str], object]
) -> Iterator[SystemCommand]:
    for item in items:
        name = (
            f"Show integration: {clip(item.name, 40)} "
            f"({clip(str(item.channel or 'no channel'), 12)}, {clip(item.provider_id, 20)})"
        )
        yield SystemCommand(
            name, "Jump to this integration", partial(show_integration, item.id or ""), False
        )


def once(commands: Iterable[SystemCommand]) -> Iterator[SystemCommand]:
    """Each command name once (a key bound on several widgets is one command)."""
    seen: set[str] = set()
    for command in commands:
        if command.title not in seen:
            seen.add(command.title)
            yield command


def palette(
    app: Any,
    screen: Screen[object],
    textuals: Iterable[SystemCommand],
    subscribers: Iterable[Subscriber],
    integrations: Iterable[Integration],
    environments: Iterable[HeldKey] = (),
) -> Iterator[SystemCommand]:
    """Textual's entries, the view's keys, the views, the other environments with a key,
    the subscribers and the loaded integrations; `app` has the actions named
    (show_inbox, open_subscriber, switch_environment, …)."""
    views = [
        SystemCommand("Inbox view", "Switch to the inbox view (key 1)", app.action_show_inbox),
        SystemCommand(
            "Integrations view",
            "Switch to the integrations view (key 2)",
            app.action_show_integrations,
        ),
        SystemCommand(
            "History view",
            "Every write inboxdesk made, and undo of any (key 3)",
            app.action_show_history,
        ),
    ]
    yield from once(
        chain(
            textuals,
            view_keys(app, screen),
            views,
            environment_commands(environments, app.run_action),
            subscriber_commands(subscribers, app.open_subscriber),
            integration_commands(integrations, app.show_integration),
        )
    )


class AppCommands(Provider):
    """The palette's only provider; register it as the app's `COMMANDS`."""

    def _commands(self) -> list[SystemCommand]:
        return list(self.app.get_system_commands(self.screen))

    async def discover(self) -> Hits:
        for command in sorted(self._commands(), key=lambda c: c.title):
            if command.discover:
                title = safe(command.title, newlines=False)
                yield DiscoveryHit(Text(title), command.callback, title, escape(safe(command.help)))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        style = matcher.match_style.rich_style
        for command in self._commands():
            # Every entry is safe text, whoever made it: names come from the service.
            title, help_text = safe(command.title, newlines=False), safe(command.help)
            score, offsets = matcher.fuzzy_search.match(matcher.query, title)
            if not score:
                score = HELP_WEIGHT * matcher.match(help_text)
                offsets = ()
            if score <= 0:
                continue
            shown = Text(title)
            for offset in offsets:
                shown.stylize(style, offset, offset + 1)
            # The palette reads help as markup: escaped.
            yield Hit(score, shown, command.callback, title, escape(help_text))
