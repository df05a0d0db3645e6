"""The command palette: the view's own keys, the views, subscribers and integrations.

It replaces Textual's system commands provider (it lists Textual's generic commands
itself) so that a command shows once: a key bound to several keys or widgets gave one
entry per key. A command is found by the words of its name or of its help
("subscr" finds "Switch subscriber"). Names are shown as rich `Text`, never as markup,
since subscriber and integration names come from the wire.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from rich.text import Text
from textual.app import App
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from inboxdesk.text import clip

if TYPE_CHECKING:
    from inboxdesk.tui.app import InboxdeskApp

# Actions the palette offers as views, not as keys of the current view.
VIEW_ACTIONS = frozenset({"app.show_inbox", "app.show_integrations", "show_inbox"})
# A match in the help text ranks below one in the name.
HELP_WEIGHT = 0.6


class Command(NamedTuple):
    name: str
    help: str
    run: Callable[[], object]
    discover: bool = True


def _view_keys(app: InboxdeskApp, screen: object) -> Iterator[Command]:
    """The current view's own keys (those with an id), once per action."""
    active = getattr(screen, "active_bindings", {})
    seen: set[tuple[int, str]] = set()
    for node, binding, enabled, tooltip in active.values():
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
        yield Command(binding.description, help_text, partial(app.run_action, binding.action, node))


def commands(app: InboxdeskApp, screen: object) -> list[Command]:
    """Every command the palette offers from `screen`, each once."""
    found = [
        Command(c.title, c.help, c.callback, c.discover)
        for c in App.get_system_commands(app, screen)  # type: ignore[arg-type]
    ]
    found += _view_keys(app, screen)
    found += [
        Command("Inbox view", "Switch to the inbox view (key 1)", app.action_show_inbox),
        Command(
            "Integrations view",
            "Switch to the integrations view (key 2)",
            app.action_show_integrations,
        ),
    ]
    for subscriber in app.subscribers:
        who, subscriber_id = clip(subscriber.display_name, 40), clip(subscriber.subscriber_id, 40)
        name = f"Open inbox: {who} ({subscriber_id})"
        found.append(
            Command(
                name,
                "Switch subscriber: open this subscriber's inbox",
                partial(app.open_subscriber, subscriber.subscriber_id),
                discover=False,
            )
        )
    if app.is_screen_installed("integrations"):
        items = getattr(app.get_screen("integrations"), "items", {})
        for item in items.values() if isinstance(items, dict) else []:
            name = (
                f"Show integration: {clip(item.name, 40)} "
                f"({clip(str(item.channel or 'no channel'), 12)}, {clip(item.provider_id, 20)})"
            )
            found.append(
                Command(
                    name,
                    "Jump to this integration",
                    partial(app.show_integration, item.id or ""),
                    discover=False,
                )
            )
    unique: dict[str, Command] = {}
    for command in found:
        unique.setdefault(command.name, command)
    return list(unique.values())


class AppCommands(Provider):
    """The palette's only provider; register it as the app's `COMMANDS`."""

    def _commands(self) -> list[Command]:
        from inboxdesk.tui.app import InboxdeskApp

        app = self.app
        assert isinstance(app, InboxdeskApp)
        return commands(app, self.screen)

    async def discover(self) -> Hits:
        for command in sorted(self._commands(), key=lambda c: c.name):
            if command.discover:
                yield DiscoveryHit(
                    Text(command.name), command.run, command.name, escape(command.help)
                )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        style = matcher.match_style.rich_style
        for command in self._commands():
            score, offsets = matcher.fuzzy_search.match(matcher.query, command.name)
            if not score:
                score = HELP_WEIGHT * matcher.match(command.help)
                offsets = ()
            if score <= 0:
                continue
            shown = Text(command.name)
            for offset in offsets:
                shown.stylize(style, offset, offset + 1)
            # The palette reads help as markup: escaped, though it holds no wire text.
            yield Hit(score, shown, command.run, command.name, escape(command.help))
