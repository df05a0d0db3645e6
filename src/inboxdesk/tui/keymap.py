"""Which bindings share a view, and the keymap entries that would collide there.

Textual applies a keymap without a word when two bindings of one screen end up on the
same key: the one found first wins, and the other loses its key and its footer entry.
`config set` and the app's start-up refuse such a keymap instead, naming both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from textual.binding import Binding

# The binding-id prefixes active together: the app's, the views', each view's own and
# the lists'. Modal screens (confirm, picker, help, problem) each stand alone.
VIEWS: dict[str, frozenset[str]] = {
    "inbox": frozenset({"app", "view", "inbox", "list", "messages"}),
    "integrations": frozenset({"app", "view", "integrations", "list"}),
    "history": frozenset({"app", "view", "history", "list"}),
    "preferences": frozenset({"app", "view", "preferences", "list"}),
    "activity": frozenset({"app", "view", "activity", "list"}),
    "timeline": frozenset({"app", "timeline"}),
    "subscriber": frozenset({"app", "view", "subscriber", "list"}),
    "confirm": frozenset({"confirm"}),
    "preference_confirm": frozenset({"preference_confirm"}),
    "context_picker": frozenset({"context_picker"}),
    "picker": frozenset({"picker"}),
    "help": frozenset({"help"}),
    "problem": frozenset({"problem"}),
    "queued": frozenset({"queued"}),
    "requests": frozenset({"requests", "list"}),
}


def _keys(value: str) -> set[str]:
    return {k.strip() for k in value.split(",") if k.strip()}


def conflicts(keymap: Mapping[str, str], bindings: Iterable[Binding]) -> list[str]:
    """One sentence per collision the keymap makes: two binding ids of one view on a key.

    Collisions among the defaults alone are not the keymap's doing and are not listed.
    """
    keys: dict[str, set[str]] = {}
    for binding in bindings:
        if binding.id:
            keys[binding.id] = _keys(keymap.get(binding.id, binding.key))
    found: list[str] = []
    for view, prefixes in VIEWS.items():
        ids = sorted(i for i in keys if i.split(".", 1)[0] in prefixes)
        for n, first in enumerate(ids):
            for second in ids[n + 1 :]:
                if first not in keymap and second not in keymap:
                    continue
                shared = keys[first] & keys[second]
                if shared:
                    found.append(
                        f"{first} and {second} would both be on {', '.join(sorted(shared))} "
                        f"in the {view} view"
                    )
    return found


def app_bindings() -> list[Binding]:
    """Every Binding the app's own classes declare, found by walking the tui package.

    Shared lists (the list keys) count once, so a keymap id may name one binding used
    by several widgets.
    """
    import importlib
    import inspect
    import pkgutil

    from textual.dom import DOMNode

    import inboxdesk.tui

    found: dict[int, Binding] = {}
    for info in pkgutil.walk_packages(inboxdesk.tui.__path__, "inboxdesk.tui."):
        module = importlib.import_module(info.name)
        for _, owner in inspect.getmembers(module, inspect.isclass):
            if issubclass(owner, DOMNode) and owner.__module__ == module.__name__:
                for binding in owner.__dict__.get("BINDINGS", []):
                    if isinstance(binding, Binding):
                        found[id(binding)] = binding
    return list(found.values())


def binding_ids() -> set[str]:
    """Every binding id the app defines: the names a keymap may use."""
    return {b.id for b in app_bindings() if b.id}


def checked_keymap(keymap: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The entries of a keymap that name a binding, and what is wrong with the rest: ids
    no binding has, and keys two bindings of one view would share (a file edited by hand:
    Textual would drop one binding without a word)."""
    unknown = sorted(set(keymap) - binding_ids())
    problems = []
    if unknown:
        problems.append(
            f"Unknown binding ids in app.keymap: {', '.join(unknown)} (the help screen lists them)."
        )
    usable = {k: v for k, v in keymap.items() if k not in unknown}
    collisions = conflicts(usable, app_bindings())
    if collisions:
        problems.append(f"The keymap collides: {'; '.join(collisions)}.")
    return usable, problems
