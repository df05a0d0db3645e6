"""A package's names imported from their modules when first used (PEP 562).

`models/` and `writes/` use it: start-up needs only a few of their modules, and
`from inboxdesk.models import X` must not build every model (BENCHMARKS.md, start-up).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def exports(
    package: str, modules: dict[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The package's `__getattr__` and `__dir__`: `modules` maps each name to the
    submodule that holds it; a name, once imported, is kept in `namespace`."""

    def getattr_(name: str) -> Any:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted([*namespace, *modules])

    return getattr_, dir_
