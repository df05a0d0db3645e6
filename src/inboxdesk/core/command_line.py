"""The `:` line's grammar (decision 122), UI-free: a line in, one command out, or a
LineError that says what was expected (and so nothing changes).

    :sub ada.lovelace           open a subscriber
    :env prod                   switch environment
    :activity failed sms 1h     Activity: closed words (failed, a channel, a window)
                                and key:value (workflow:, email:, topic:, context:,
                                sub:, by:cause)
    :view save NAME             save what is on screen as a view
    :view NAME  or  :NAME       open a saved view
    :txn ID                     open a transaction's timeline
    :ALIAS                      an alias of the config's [aliases] (one level)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from inboxdesk.core.views import CHANNELS, GROUPINGS, VERBS, WINDOW

FILTER_KEYS = ("workflow", "email", "topic", "context", "sub", "by")
WORDS = ("failed", *CHANNELS, "15m", "1h", "24h", "7d")


class LineError(ValueError):
    """A line that is not a command: the message says what was expected."""


@dataclass(frozen=True)
class Sub:
    subscriber_id: str


@dataclass(frozen=True)
class Env:
    name: str


@dataclass(frozen=True)
class Activity:
    failed: bool = False
    channel: str | None = None
    window: str | None = None
    subscriber: str | None = None  # None: every subscriber
    grouping: str | None = None
    filters: dict[str, str] = field(default_factory=dict)  # workflow, email, topic, context


@dataclass(frozen=True)
class SaveView:
    name: str


@dataclass(frozen=True)
class OpenView:
    name: str


@dataclass(frozen=True)
class Txn:
    transaction_id: str


Command = Sub | Env | Activity | SaveView | OpenView | Txn


def parse(
    text: str,
    views: Mapping[str, object] | None = None,
    aliases: Mapping[str, str] | None = None,
) -> Command:
    """The command of a `:` line (the colon optional); views and aliases by name."""
    views, aliases = views or {}, aliases or {}
    words = text.strip().removeprefix(":").split()
    if not words:
        raise LineError(f"expected a command: {', '.join(VERBS)}, a view or an alias")
    verb, args = words[0], words[1:]
    if verb == "sub":
        return Sub(_one(args, "sub", "a subscriber id"))
    if verb == "env":
        return Env(_one(args, "env", "an environment's name or id"))
    if verb == "txn":
        return Txn(_one(args, "txn", "a transaction id"))
    if verb == "activity":
        return _activity(args)
    if verb == "view":
        if args[:1] == ["save"]:
            return SaveView(_one(args[1:], "view save", "a name for the view"))
        name = _one(args, "view", "a view's name, or save NAME")
        return _view(name, views)
    if verb == "send":
        raise LineError(":send is not taken here yet; expected sub, env, activity, view or txn")
    if args:
        raise LineError(f"expected a command ({', '.join(VERBS)}), not '{verb}'")
    if verb in views:
        return OpenView(verb)
    if verb in aliases:
        expanded = aliases[verb].strip().removeprefix(":").split()
        if expanded and expanded[0] in aliases and expanded[0] not in VERBS:
            raise LineError(f"alias '{verb}' names another alias; expected a command")
        return parse(aliases[verb], views, {})
    raise LineError(
        f"no command, view or alias '{verb}'; expected {', '.join(VERBS)}, a view or an alias"
    )


def _one(args: list[str], verb: str, what: str) -> str:
    if len(args) != 1:
        raise LineError(f":{verb} takes {what}" + (", one word" if args else ""))
    return args[0]


def _view(name: str, views: Mapping[str, object]) -> OpenView:
    if name not in views:
        known = ", ".join(sorted(views)) or "none saved yet"
        raise LineError(f"no view '{name}'; expected one of: {known}")
    return OpenView(name)


def _activity(args: list[str]) -> Activity:
    failed = False
    channel = window = subscriber = grouping = None
    filters: dict[str, str] = {}
    for word in args:
        if word == "failed":
            failed = True
        elif word in CHANNELS:
            if channel is not None:
                raise LineError(f"one channel at most; expected one of {', '.join(CHANNELS)}")
            channel = word
        elif WINDOW.match(word):
            if window is not None:
                raise LineError("one window at most, such as 15m, 1h, 24h or 7d")
            window = word
        elif ":" in word:
            key, value = word.split(":", 1)
            if key not in FILTER_KEYS or not value:
                raise LineError(
                    f"'{word}': expected key:value with a key of {', '.join(FILTER_KEYS)}"
                )
            if key == "sub":
                subscriber = value
            elif key == "by":
                if value not in GROUPINGS:
                    raise LineError(f"'{word}': expected by:cause")
                grouping = value
            elif key == "context" and ":" not in value.strip(":"):
                raise LineError(f"'{word}': expected context:TYPE:ID")
            else:
                filters[key] = value
        else:
            raise LineError(
                f"'{word}': expected failed, a channel ({', '.join(CHANNELS)}), a window "
                f"such as 15m, 1h, 24h or 7d, or key:value ({', '.join(FILTER_KEYS)})"
            )
    return Activity(failed, channel, window, subscriber, grouping, filters)


def completions(
    text: str,
    environments: Sequence[str] = (),
    views: Sequence[str] = (),
    aliases: Sequence[str] = (),
    subscribers: Sequence[str] = (),
) -> list[str]:
    """Whole lines that complete `text` (for a suggester): the verb, a view or alias, an
    environment after `env`, a recent subscriber after `sub`, a word after `activity`."""
    colon = text.startswith(":")
    body = text.removeprefix(":")
    head, _, last = body.rpartition(" ")
    names: list[str]
    if not head:
        names = [*VERBS, *views, *aliases]
    else:
        names = {
            "env": list(environments),
            "sub": list(subscribers),
            "view": ["save", *views],
            "activity": [*WORDS, *(k + ":" for k in FILTER_KEYS)],
        }.get(head.split()[0], [])
    prefix = (":" if colon else "") + (head + " " if head else "")
    return [prefix + n for n in dict.fromkeys(names) if n.startswith(last) and n != last]
