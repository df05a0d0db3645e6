"""The package's shape, checked on its source as written.

- Layers: arrows point one way (tui -> writes -> client -> models, server -> models,
  cli -> everything); models, client, server, config and writes never import Textual,
  and the tui never imports the server.
- No import circle anywhere in the package.
- Private attributes and modules of other libraries are used in `private_apis.py` only.
- Every screen's and the app's `title` and `sub_title` (the header and the window
  title) is a literal, or passes through the one safe-text function (`safe`, or `clip`,
  which calls it) where it is set.

An import is any of: `import a.b`, `from a import b`, a relative `from ..a import b`,
and `importlib.import_module("a.b")` (or `__import__`) with a literal name, at any
depth of a file (an import inside a function closes a circle as surely as one at the
top). Imports under `if TYPE_CHECKING:` never run: the layer rules still apply to them,
but they close no circle (a part of a screen names the screen that holds it there).

Each rule has a test that plants a violation in a small package shaped like this one
and sees the check fail.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "inboxdesk"

UI = ("textual", "rich", "inboxdesk.tui", "inboxdesk.cli")
FORBIDDEN = {
    "models": (
        *UI,
        "inboxdesk.core",
        "inboxdesk.client",
        "inboxdesk.server",
        "inboxdesk.writes",
        "httpx",
    ),
    # The client takes plain values; settings become a client in config/connect.py.
    "client": (
        *UI,
        "inboxdesk.core",
        "inboxdesk.server",
        "inboxdesk.config",
        "inboxdesk.writes",
        "fastapi",
    ),
    # Settings and the file: below the UI and the command line, beside the service.
    "config": (*UI, "inboxdesk.core", "inboxdesk.server", "inboxdesk.writes", "fastapi"),
    "server": (*UI, "inboxdesk.core", "inboxdesk.client", "inboxdesk.writes", "inboxdesk.config"),
    # Below the UI: the app and the command line both use it.
    "writes": (*UI, "inboxdesk.core", "inboxdesk.server", "fastapi"),
    "tui": ("inboxdesk.server", "inboxdesk.cli", "httpx", "fastapi", "uvicorn"),
    # The rules the app and the command line share, and the helpers beside them
    # (text.py measures cells with rich, as every table does).
    "rules": ("textual", "inboxdesk.tui", "inboxdesk.cli", "inboxdesk.server"),
    # UI-free use-cases shared by the app and the command line: above writes and the
    # client, below the UI and the command line.
    "core": (*UI, "click", "inboxdesk.server", "fastapi", "uvicorn"),
}
# Modules at the package's top level, by the layer whose rules they follow: the rules
# that layers below core use too (the cause, the schedule, a key's scope) and plain
# utilities. What only the app and the command line share lives in core/.
TOP_LEVEL = {
    "text": "rules",
    "timeinput": "rules",
    "scope": "rules",
    "paths": "rules",
    "gc_paused": "rules",
    "delivery": "rules",
    "wrapping": "rules",
    "schedule": "rules",
}
PRIVATE_APIS = "inboxdesk.private_apis"


@dataclass(frozen=True)
class Import:
    module: str  # the module imported, or the one a name was imported from
    names: tuple[str, ...]  # the names imported from it ("" for the module itself)
    type_only: bool


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_of(root: Path) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(name: str, level: int, module: str, is_package: bool) -> str:
    """An absolute module name for a relative import in `module`."""
    if not level:
        return name
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


def imports_of(path: Path, root: Path) -> list[Import]:
    """Every import of the file, with whether it sits under `if TYPE_CHECKING:`."""
    module = module_name(path, root)
    is_package = path.name == "__init__.py"
    found: list[Import] = []

    def visit(node: ast.AST, type_only: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, type_only)
            return
        if isinstance(node, ast.Import):
            found.extend(Import(alias.name, ("",), type_only) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(node.module or "", node.level, module, is_package)
            found.append(Import(source, tuple(a.name for a in node.names), type_only))
        elif isinstance(node, ast.Call) and _import_call(node):
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                name = first.value
                level = len(name) - len(name.lstrip("."))
                found.append(
                    Import(_resolve(name.lstrip("."), level, module, is_package), ("",), type_only)
                )
        for child in ast.iter_child_nodes(node):
            visit(child, type_only)

    visit(ast.parse(path.read_text(), str(path)), False)
    return found


def _import_call(node: ast.Call) -> bool:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in ("import_module", "__import__")


def targets(imported: Import, modules: dict[str, Path]) -> set[str]:
    """The modules an import names: `from a import b` is `a.b` where that is a module."""
    out: set[str] = set()
    for name in imported.names:
        candidate = f"{imported.module}.{name}" if name else imported.module
        out.add(candidate if candidate in modules else imported.module)
    return out


# -- the checks -------------------------------------------------------------------------


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) < 2:
        return None
    if parts[1] in FORBIDDEN:
        return parts[1]
    return TOP_LEVEL.get(parts[1])


def layer_violations(root: Path) -> list[str]:
    modules = modules_of(root)
    broken = []
    for module, path in modules.items():
        layer = layer_of(module)
        if layer is None:
            continue
        for imported in imports_of(path, root):
            for name in targets(imported, modules):
                if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN[layer]):
                    broken.append(f"{module} ({layer}) imports {name}")
    return broken


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports when it runs."""
    modules = modules_of(root)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        graph[module] = {
            name
            for imported in imports_of(path, root)
            if not imported.type_only
            for name in targets(imported, modules)
            if name in modules and name != module
        }
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph.get(module, ())):
            if state.get(imported) == 1:
                found.append([*path[path.index(imported) :], imported])
            elif imported not in state:
                visit(imported)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return found


# Named with an underscore so as not to clash with field names, yet public.
NAMEDTUPLE_API = {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}


def _private(name: str) -> bool:
    dunder = name.startswith("__") and name.endswith("__")
    return name.startswith("_") and not dunder and name not in NAMEDTUPLE_API


def _own_names(trees: list[ast.AST]) -> set[str]:
    """Every name the package itself defines or binds: its privates are its own."""
    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias):
                names.add(node.asname or node.name.split(".")[0])
    return names


def private_uses(root: Path) -> list[str]:
    """Private attributes and modules of other libraries used outside private_apis.py."""
    modules = modules_of(root)
    trees = {m: ast.parse(p.read_text(), str(p)) for m, p in modules.items()}
    own = _own_names([t for m, t in trees.items() if not m.endswith(".private_apis")])
    package = root.name
    broken = []
    for module, tree in trees.items():
        if module.endswith(".private_apis"):
            continue
        for imported in imports_of(modules[module], root):
            if imported.module.split(".")[0] == package:
                continue
            parts = [*imported.module.split("."), *(n for n in imported.names if n)]
            if any(_private(p) for p in parts):
                broken.append(f"{module} imports {'.'.join(parts)}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
                broken.append(f"{module}:{node.lineno} uses .{node.attr}")
            elif (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") in ("getattr", "setattr", "hasattr")
                and len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and _private(node.args[1].value)
                and node.args[1].value not in own
            ):
                broken.append(f"{module}:{node.lineno} uses {node.args[1].value}")
    return broken


# The functions through which text may become a title: `clip` calls `safe`.
SAFE_CALLS = {"safe", "clip"}
TITLES = {"title", "sub_title", "TITLE", "SUB_TITLE"}


def _through_safe(value: ast.expr) -> bool:
    """A literal string, or a call of the safe-text function on anything."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in SAFE_CALLS
    return False


def unsafe_titles(root: Path) -> list[str]:
    """Assignments of a title or sub-title in the UI that do not pass through `safe`."""
    broken = []
    for module, path in modules_of(root).items():
        if not module.startswith(f"{root.name}.tui"):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            for target in targets:
                name = target.attr if isinstance(target, ast.Attribute) else None
                if isinstance(target, ast.Name) and target.id in ("TITLE", "SUB_TITLE"):
                    name = target.id
                if name in TITLES and (isinstance(node, ast.AugAssign) or not _through_safe(value)):
                    broken.append(f"{module}:{node.lineno} sets {name} without safe()")
    return broken


# -- the package ------------------------------------------------------------------------


def test_every_module_has_a_layer() -> None:
    unplaced = [
        m
        for m in modules_of(SRC)
        if m.count(".") == 1
        and layer_of(m) is None
        and m.split(".")[1] not in ("cli", "entry", "__main__", "private_apis")
    ]
    assert unplaced == []


def test_layers_import_only_downwards() -> None:
    assert layer_violations(SRC) == []


def test_no_import_circle_in_the_package() -> None:
    assert cycles(import_graph(SRC)) == []


def test_private_apis_of_other_libraries_only_in_private_apis() -> None:
    assert private_uses(SRC) == []


def test_every_title_passes_through_safe() -> None:
    assert unsafe_titles(SRC) == []


def test_no_screen_imports_the_app() -> None:
    graph = import_graph(SRC)
    views = [m for m in graph if m.startswith("inboxdesk.tui.") and m != "inboxdesk.tui.app"]
    assert [m for m in views if "inboxdesk.tui.app" in graph[m]] == []


def test_the_repository_stands_alone() -> None:
    """Comments, docstrings, tests and documents explain themselves: none cites the
    pages of the project's brief, which readers of the repository do not have."""
    pages = "|".join(["decisions", "behaviour", "api", "delivery"])
    cited = re.compile(rf"\b(?:{pages})\.md\b")
    root = SRC.parents[1]
    texts = [
        *SRC.rglob("*.py"),
        *(root / "tests").rglob("*.py"),
        *(root / "benchmarks").rglob("*.py"),
        *(root / "docs").rglob("*.md"),
        root / "README.md",
        root / "BENCHMARKS.md",
    ]
    found = [
        f"{path.relative_to(root)}:{n}"
        for path in texts
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if cited.search(line)
    ]
    assert found == []


# -- each check, pointed at a planted violation, fails ----------------------------------


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    """A small package shaped like this one, to plant violations in."""
    root = tmp_path / "inboxdesk"
    parts = ("", "tui", "tui/inbox", "server", "server/store", "models", "client", "writes")
    for part in (*parts, "core", "core/delivery"):
        (root / part).mkdir(parents=True, exist_ok=True)
        (root / part / "__init__.py").write_text('"""A package."""\n')
    (root / "client" / "api.py").write_text("class InboxClient:\n    pass\n")
    (root / "client" / "__init__.py").write_text("from inboxdesk.client.api import InboxClient\n")
    (root / "text.py").write_text("import re\n")
    assert layer_violations(root) == [] and cycles(import_graph(root)) == []
    assert private_uses(root) == []
    return root


@pytest.mark.parametrize(
    "where, source",
    [
        ("tui/probe.py", "from inboxdesk.server.app import create_app\n"),
        ("tui/probe.py", "from ..server import app\n"),
        ("tui/inbox/probe.py", "from ...server.store import Store\n"),
        ("tui/probe.py", "import importlib\nimportlib.import_module('inboxdesk.server')\n"),
        (
            "tui/probe.py",
            "def f():\n    from importlib import import_module\n"
            "    return import_module('..server.app', __name__)\n",
        ),
        ("models/probe.py", "import textual.app\n"),
        (
            "client/probe.py",
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from inboxdesk.tui.app import InboxdeskApp\n",
        ),
        ("server/probe.py", "def f():\n    import inboxdesk.client\n"),
        ("text.py", "import textual\n"),
        ("core/delivery/probe.py", "import textual.widgets\n"),
        ("core/probe.py", "from inboxdesk.cli import main\n"),
        ("core/delivery/probe.py", "import click\n"),
        ("core/probe.py", "from ..server import app\n"),
        ("client/probe.py", "from inboxdesk.core.delivery import grouping\n"),
    ],
)
def test_a_planted_layer_violation_fails(planted: Path, where: str, source: str) -> None:
    (planted / where).write_text(source)
    probe = module_name(planted / where, planted)
    assert [v for v in layer_violations(planted) if v.startswith(probe + " ")] != []


def test_a_planted_circle_fails(planted: Path) -> None:
    (planted / "writes" / "probe_a.py").write_text("from .probe_b import B\nA = 1\n")
    (planted / "writes" / "probe_b.py").write_text(
        "def f():\n    from inboxdesk.writes import probe_a\n    return probe_a\nB = 2\n"
    )
    assert ["inboxdesk.writes.probe_a", "inboxdesk.writes.probe_b", "inboxdesk.writes.probe_a"] in (
        cycles(import_graph(planted))
    )


def test_a_planted_circle_through_a_package_fails(planted: Path) -> None:
    (planted / "client" / "probe.py").write_text("from inboxdesk.client import InboxClient\n")
    init = planted / "client" / "__init__.py"
    init.write_text(init.read_text() + "from inboxdesk.client import probe\n")
    assert ["inboxdesk.client", "inboxdesk.client.probe", "inboxdesk.client"] in (
        cycles(import_graph(planted))
    )


@pytest.mark.parametrize(
    "source",
    [
        "def f(footer):\n    return footer._bindings_ready\n",
        "from textual.widgets._footer import FooterKey\n",
        "def f(app):\n    return getattr(app, '_exception')\n",
    ],
)
def test_a_planted_private_api_fails(planted: Path, source: str) -> None:
    (planted / "tui" / "probe.py").write_text(source)
    assert [v for v in private_uses(planted) if v.startswith("inboxdesk.tui.probe")] != []


@pytest.mark.parametrize(
    "source",
    [
        "def f(screen, name):\n    screen.sub_title = f'Delivery of {name}'\n",
        "def f(app, url):\n    app.title = url\n",
        "def f(self, name):\n    self.sub_title = 'Of ' + name\n",
        "def f(self, name):\n    self.title += name\n",
        "class S:\n    SUB_TITLE = str(1)\n",
    ],
)
def test_a_planted_unsafe_title_fails(planted: Path, source: str) -> None:
    (planted / "tui" / "probe.py").write_text(
        "from inboxdesk.text import safe\n"
        + source
        + "def g(self, name):\n    self.title = safe(name)\n"
    )
    found = [v for v in unsafe_titles(planted) if v.startswith("inboxdesk.tui.probe")]
    assert len(found) == 1
