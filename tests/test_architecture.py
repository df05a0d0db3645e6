"""The import contract: tui -> client -> models, server -> models, cli -> everything."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "inboxdesk"

FORBIDDEN = {
    "models": (
        "textual",
        "rich",
        "inboxdesk.tui",
        "inboxdesk.client",
        "inboxdesk.server",
        "inboxdesk.cli",
        "httpx",
        "fastapi",
    ),
    # The client takes plain values; settings become a client in config/connect.py.
    "client": (
        "textual",
        "inboxdesk.tui",
        "inboxdesk.server",
        "inboxdesk.cli",
        "inboxdesk.config",
        "pydantic_settings",
        "fastapi",
    ),
    # Settings and the file: below the UI and the command line, beside the service.
    "config": ("textual", "rich", "inboxdesk.tui", "inboxdesk.cli", "inboxdesk.server", "fastapi"),
    "server": ("textual", "inboxdesk.tui", "inboxdesk.client", "inboxdesk.cli"),
    "tui": ("inboxdesk.server", "inboxdesk.cli", "httpx", "fastapi", "uvicorn"),
    # Below the UI: the app and the command line both use it.
    "writes": ("textual", "rich", "inboxdesk.tui", "inboxdesk.cli", "inboxdesk.server", "fastapi"),
}


def imports(path: Path, names: bool = False) -> set[str]:
    """The modules a file imports anywhere in it; with `names`, also `module.name` for
    each name imported from a module (it may be a submodule)."""
    tree = ast.parse(path.read_text(), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            if names:
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize("part", sorted(FORBIDDEN))
def test_layers_import_only_downwards(part: str) -> None:
    files = sorted((SRC / part).rglob("*.py"))
    assert files, part
    broken = [
        f"{path.relative_to(SRC)} imports {name}"
        for path in files
        for name in imports(path)
        if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN[part])
    ]
    assert broken == []


MAX_LINES = 500


def test_no_source_file_is_over_500_lines() -> None:
    """decisions.md 37: the server, the config and every other package included."""
    sizes = {p: len(p.read_text().splitlines()) for p in SRC.rglob("*.py")}
    assert {str(p.relative_to(SRC)): n for p, n in sizes.items() if n > MAX_LINES} == {}


def test_the_contract_would_catch_a_violation(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text("from inboxdesk.server.store import Store\nimport textual.app\n")
    assert {"inboxdesk.server.store", "textual.app"} <= imports(sample)


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Every inboxdesk module and the inboxdesk modules it imports, at any depth of the
    file (a lazy import inside a function closes a circle as surely as one at the top)."""
    modules = {module_name(p): p for p in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {m for m in imports(path, names=True) if m in modules and m != name}
    return graph


def cycles_within(graph: dict[str, set[str]], prefix: str) -> list[list[str]]:
    """Import circles among the modules under `prefix` (a package's own __init__ aside)."""
    inside = {
        m: {n for n in graph[m] if n.startswith(prefix) and n != prefix}
        for m in graph
        if m.startswith(prefix) and m != prefix
    }
    found: list[list[str]] = []
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for imported in sorted(inside.get(module, ())):
            if state.get(imported) == 1:
                found.append([*path[path.index(imported) :], imported])
            elif imported not in state:
                visit(imported)
        path.pop()
        state[module] = 2

    for module in sorted(inside):
        if module not in state:
            visit(module)
    return found


@pytest.mark.parametrize(
    "package", ["inboxdesk.tui", "inboxdesk.cli", "inboxdesk.writes", "inboxdesk.server"]
)
def test_no_import_circles(package: str) -> None:
    assert cycles_within(import_graph(), package + ".") == []


def test_the_circle_check_would_catch_one() -> None:
    graph = {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}
    assert cycles_within(graph, "p.") == [["p.a", "p.b", "p.c", "p.a"]]


def test_no_screen_imports_the_app() -> None:
    graph = import_graph()
    views = [m for m in graph if m.startswith("inboxdesk.tui.") and m != "inboxdesk.tui.app"]
    assert [m for m in views if "inboxdesk.tui.app" in graph[m]] == []
