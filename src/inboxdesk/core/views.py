"""Saved views, UI-free (decisions 91, 121).

A view is a named set of filters for the inbox or Activity. It stores the profile, the
environment's `_id` (its name only as a cache, for the words), the kind, and that kind's
filters, and nothing else. It is read from and written to a `[views.NAME]` table of the
config file as plain values; a table with a key no view has is refused, naming the key,
so a typo never opens a view that silently ignores it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import timedelta
from typing import Any

KINDS = ("inbox", "activity")
CHANNELS = ("email", "sms", "push", "chat", "in_app")
TABS = ("inbox", "unread", "unseen", "archived", "snoozed", "all")
GROUPINGS = ("cause",)
# Verbs of the `:` line (decision 122): never the name of a view or an alias.
VERBS = ("sub", "env", "activity", "view", "txn", "send")
WINDOW = re.compile(r"^[1-9][0-9]{0,3}[mhd]$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")

# The keys each kind may hold, besides the ones every view holds.
COMMON = ("kind", "profile", "environment_id", "environment")
KEYS = {
    "inbox": ("subscriber", "tab"),
    "activity": ("subscriber", "everyone", "window", "channel", "workflow", "failed", "grouping"),
}


class ViewError(ValueError):
    """A view that cannot be read or saved, said in words."""


@dataclass(frozen=True)
class View:
    name: str
    kind: str
    profile: str | None = None
    environment_id: str | None = None
    environment: str | None = None  # the environment's name, a cache for the words
    subscriber: str | None = None
    tab: str | None = None
    everyone: bool = False
    window: str | None = None
    channel: str | None = None
    workflow: str | None = None
    failed: bool = False
    grouping: str | None = None

    def to_table(self) -> dict[str, Any]:
        """The `[views.NAME]` table: only what is set (TOML has no null)."""
        table: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name != "name" and value not in (None, False):
                table[f.name] = value
        return table

    def where(self) -> str:
        """The environment in words: its cached name, else its `_id`."""
        return self.environment or self.environment_id or "the current environment"


def window_delta(window: str) -> timedelta:
    """A window such as 15m, 1h, 24h or 7d as a length of time."""
    if not WINDOW.match(window):
        raise ViewError(f"'{window}' is not a window such as 15m, 1h, 24h or 7d")
    unit = {"m": "minutes", "h": "hours", "d": "days"}[window[-1]]
    return timedelta(**{unit: int(window[:-1])})


def check_name(name: str) -> str:
    if name in VERBS:
        raise ViewError(f"'{name}' is a verb of the : line; pick another name for the view")
    if not _NAME.match(name):
        raise ViewError(
            f"'{name}' is not a view name: letters, digits, - and _, at most 64, "
            "starting with a letter or digit"
        )
    return name


def read_view(name: str, table: Mapping[str, Any]) -> View:
    """The view of a `[views.NAME]` table; a ViewError names the first wrong key."""
    if not isinstance(table, Mapping):
        raise ViewError(f"view '{name}' is not a table")
    kind = table.get("kind")
    if kind not in KINDS:
        raise ViewError(f"view '{name}': kind must be one of {', '.join(KINDS)}, not {kind!r}")
    allowed = COMMON + KEYS[kind]
    unknown = [k for k in table if k not in allowed]
    if unknown:
        raise ViewError(
            f"view '{name}' has an unknown key '{unknown[0]}' (a {kind} view takes "
            f"{', '.join(allowed)}); it was not opened"
        )
    values: dict[str, Any] = {}
    for key in allowed:
        if key == "kind" or key not in table:
            continue
        value = table[key]
        if key in ("everyone", "failed"):
            if not isinstance(value, bool):
                raise ViewError(f"view '{name}': {key} must be true or false")
        elif not isinstance(value, str) or not value:
            raise ViewError(f"view '{name}': {key} must be a non-empty string")
        values[key] = value
    view = View(name=name, kind=kind, **values)
    _check_values(view)
    return view


def _check_values(view: View) -> None:
    def bad(key: str, expected: str) -> ViewError:
        return ViewError(f"view '{view.name}': {key} must be {expected}")

    if view.tab is not None and view.tab not in TABS:
        raise bad("tab", "one of " + ", ".join(TABS))
    if view.channel is not None and view.channel not in CHANNELS:
        raise bad("channel", "one of " + ", ".join(CHANNELS))
    if view.window is not None and not WINDOW.match(view.window):
        raise bad("window", "a window such as 15m, 1h, 24h or 7d")
    if view.grouping is not None and view.grouping not in GROUPINGS:
        raise bad("grouping", "cause")
    if view.everyone and view.subscriber:
        raise ViewError(f"view '{view.name}': a view is of one subscriber or of everyone")
    if view.kind == "inbox" and not view.subscriber:
        raise bad("subscriber", "set for an inbox view")


def make_view(name: str, kind: str, **values: Any) -> View:
    """A view to save: its name checked, its values checked as a read would."""
    check_name(name)
    table = {"kind": kind, **{k: v for k, v in values.items() if v not in (None, False)}}
    return read_view(name, table)


def views_of(tables: Mapping[str, Any]) -> tuple[dict[str, View], dict[str, str]]:
    """Every readable view of the `[views]` table, and the error of each that is not:
    one bad view never hides the others."""
    good: dict[str, View] = {}
    bad: dict[str, str] = {}
    for name, table in tables.items():
        try:
            good[name] = read_view(name, table)
        except ViewError as exc:
            bad[name] = str(exc)
    return good, bad
