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
    "confirm": frozenset({"confirm"}),
    "picker": frozenset({"picker"}),
    "help": frozenset({"help"}),
    "problem": frozenset({"problem"}),
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
