"""The package's shape, checked on its source as written.

- Layers: arrows point one way (tui -> writes -> client -> models, server -> models,
  cli -> everything); models, client, server, config and writes never import Textual,
  and the tui never imports the server.
- No import circle anywhere in the package, type-only imports included.
- No view imports the App.
- Every module at the package's top level has a layer.
- The repository explains itself: nothing in it cites the project brief's pages.
- Private attributes and modules of other libraries are used in `private_apis.py` only.
- Every screen's and the app's `title` and `sub_title` (the header and the window
  title) is a literal, or passes through the one safe-text function (`safe`, or `clip`,
  which calls it) where it is set.

An import is any of: `import a.b`, `from a import b`, a relative `from ..a import b`,
and `importlib.import_module("a.b")` (or `__import__`) with a literal name, at any
depth of a file (an import inside a function closes a circle as surely as one at the
top), under `if TYPE_CHECKING:` too: such an import never runs, but it still ties the
two modules together (one cannot be read, moved or tested without the other), so it
counts for the layers and closes a circle like any other.

Each rule has a test that plants a violation in a small package shaped like this one
and sees the check fail. Each file's syntax tree is walked once per run: what the checks
read of it is shared by the run's workers.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.run_shared import built_once, run_folder

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
# Modules at the top level that belong to no layer: the command line, the entry points.
UNLAYERED = ("cli", "entry", "__main__", "private_apis")
PRIVATE_APIS = "inboxdesk.private_apis"


@dataclass(frozen=True)
class Import:
    module: str  # the module imported, or the one a name was imported from
    names: tuple[str, ...]  # the names imported from it ("" for the module itself)


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_of(root: Path) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


@dataclass(frozen=True)
class Facts:
    """What the checks read of one file, found in one walk of its syntax tree: plain
    data, so that the run's workers share it (tests/templates.py shares the demo so)."""

    # Each import as written: the name, its level (dots) and the names taken from it
    # ("" for the module itself); `import_module("a")` and `__import__` with a literal.
    imports: tuple[tuple[str, int, tuple[str, ...]], ...]
    # The names the file defines or binds that begin with "_" (only a private name is
    # asked about): its privates are the package's own.
    own: frozenset[str]
    # (line, name): each private attribute the file reads or sets, and each private name
    # given to getattr, setattr or hasattr as a literal.
    attributes: tuple[tuple[int, str], ...]
    by_name: tuple[tuple[int, str], ...]
    # (line, name): each title or sub-title set without passing through `safe`.
    unsafe_titles: tuple[tuple[int, str], ...]


# The facts of each file by its path and text (found again only when its text changed):
# found here, or read from the run's shared copy (`share_facts`).
_FACTS: dict[tuple[str, str], Facts] = {}


def facts_of(path: Path) -> Facts:
    text = path.read_text()
    known = _FACTS.get((str(path), text))
    if known is None:
        known = _FACTS[(str(path), text)] = _facts(ast.parse(text, str(path)))
    return known


def share_facts(root: Path, folder: Path) -> None:
    """The facts of every file under `root`, found by the first worker of the run that
    asks, under a file lock, and read by the others from `folder` (finding them cost each
    worker 1.4 CPU-s, reading them 0.04). The copy is named by the files' paths and
    texts: a file changed since is not in it, and is parsed."""
    texts = {str(p): p.read_text() for p in sorted(root.rglob("*.py"))}
    digest = hashlib.sha256(json.dumps(texts).encode()).hexdigest()[:32]
    folder.mkdir(parents=True, exist_ok=True)
    found = json.loads(
        built_once(
            folder / f"{digest}.json",
            lambda: json.dumps({path: _plain(facts_of(Path(path))) for path in texts}).encode(),
        )
    )
    for path, (imports, own, attributes, by_name, titles) in found.items():
        _FACTS.setdefault(
            (path, texts[path]),
            Facts(
                tuple((name, level, tuple(names)) for name, level, names in imports),
                frozenset(own),
                tuple((n, name) for n, name in attributes),
                tuple((n, name) for n, name in by_name),
                tuple((n, name) for n, name in titles),
            ),
        )


def _plain(facts: Facts) -> list[object]:
    own = sorted(facts.own)
    return [facts.imports, own, facts.attributes, facts.by_name, facts.unsafe_titles]


def _walk(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of the tree but the expression contexts (`Load`, `Store`: a third of
    all nodes, read through their expression's `ctx`)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for field in node._fields:
            if field == "ctx":
                continue
            value = getattr(node, field, None)
            if isinstance(value, list):
                todo.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                todo.append(value)


def _facts(tree: ast.AST) -> Facts:
    imports: list[tuple[str, int, tuple[str, ...]]] = []
    own: set[str] = set()
    attributes: list[tuple[int, str]] = []
    by_name: list[tuple[int, str]] = []
    titles: list[tuple[int, str]] = []
    for node in _walk(tree):
        if isinstance(node, ast.Attribute):
            if isinstance(node.ctx, ast.Store):
                own.add(node.attr)
            if _private(node.attr):
                attributes.append((node.lineno, node.attr))
        elif isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Store):
                own.add(node.id)
        elif isinstance(node, ast.Call):
            imported = _import_call(node)
            if imported is not None:
                imports.append(imported)
            named = _private_by_name(node)
            if named is not None:
                by_name.append((node.lineno, named))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            own.add(node.name)
        elif isinstance(node, ast.arg):
            own.add(node.arg)
        elif isinstance(node, ast.alias):
            own.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.Import):
            imports.extend((alias.name, 0, ("",)) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names = tuple(a.name for a in node.names)
            imports.append((node.module or "", node.level, names))
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            titles.extend((node.lineno, name) for name in _unsafe_titles(node))
    return Facts(
        tuple(imports),
        frozenset(name for name in own if name.startswith("_")),
        tuple(attributes),
        tuple(by_name),
        tuple(titles),
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
    """Every import of the file, wherever it sits (in a function, under TYPE_CHECKING)."""
    module = module_name(path, root)
    is_package = path.name == "__init__.py"
    return [
        Import(_resolve(name, level, module, is_package), names)
        for name, level, names in facts_of(path).imports
    ]


def _import_call(node: ast.Call) -> tuple[str, int, tuple[str, ...]] | None:
    """`import_module("a.b")` or `__import__` with a literal name, as an import."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name not in ("import_module", "__import__"):
        return None
    first = node.args[0] if node.args else None
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        return None
    level = len(first.value) - len(first.value.lstrip("."))
    return (first.value.lstrip("."), level, ("",))


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


def unplaced(root: Path) -> list[str]:
    """Modules at the package's top level that follow no layer's rules."""
    return [
        m
        for m in modules_of(root)
        if m.count(".") == 1 and layer_of(m) is None and m.split(".")[1] not in UNLAYERED
    ]


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
    """Each module of the package and the package's modules it imports."""
    modules = modules_of(root)
    return {
        module: {
            name
            for imported in imports_of(path, root)
            for name in targets(imported, modules)
            if name in modules and name != module
        }
        for module, path in modules.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that reach one another through imports (a circle of any
    length, or several that share a module), sorted: the graph's strongly connected
    components of more than one module (Tarjan's walk)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph.get(module, ())):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)


def screens_importing_the_app(root: Path) -> list[str]:
    """Modules of the UI, but the App's own, that import the App (type-only too)."""
    app = f"{root.name}.tui.app"
    graph = import_graph(root)
    return sorted(
        m for m, imported in graph.items() if m.startswith(f"{root.name}.tui.") and app in imported
    )


# Named with an underscore so as not to clash with field names, yet public.
NAMEDTUPLE_API = {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}


def _private(name: str) -> bool:
    dunder = name.startswith("__") and name.endswith("__")
    return name.startswith("_") and not dunder and name not in NAMEDTUPLE_API


def _private_by_name(node: ast.Call) -> str | None:
    """The private name a getattr, setattr or hasattr call gives as a literal."""
    if getattr(node.func, "id", "") not in ("getattr", "setattr", "hasattr"):
        return None
    if len(node.args) < 2:
        return None
    name = node.args[1]
    if isinstance(name, ast.Constant) and isinstance(name.value, str) and _private(name.value):
        return name.value
    return None


def private_uses(root: Path) -> list[str]:
    """Private attributes and modules of other libraries used outside private_apis.py."""
    modules = modules_of(root)
    facts = {m: facts_of(p) for m, p in modules.items()}
    own = set().union(*(f.own for m, f in facts.items() if not m.endswith(".private_apis")))
    package = root.name
    broken = []
    for module, found in facts.items():
        if module.endswith(".private_apis"):
            continue
        for imported in imports_of(modules[module], root):
            if imported.module.split(".")[0] == package:
                continue
            parts = [*imported.module.split("."), *(n for n in imported.names if n)]
            if any(_private(p) for p in parts):
                broken.append(f"{module} imports {'.'.join(parts)}")
        broken += [f"{module}:{n} uses .{name}" for n, name in found.attributes if name not in own]
        broken += [f"{module}:{n} uses {name}" for n, name in found.by_name if name not in own]
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


def _unsafe_titles(node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> list[str]:
    """The titles an assignment sets without passing through `safe`."""
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif node.value is not None:
        targets, value = [node.target], node.value
    else:
        return []
    unsafe = []
    for target in targets:
        name = target.attr if isinstance(target, ast.Attribute) else None
        if isinstance(target, ast.Name) and target.id in ("TITLE", "SUB_TITLE"):
            name = target.id
        if name in TITLES and (isinstance(node, ast.AugAssign) or not _through_safe(value)):
            unsafe.append(name)
    return unsafe


def unsafe_titles(root: Path) -> list[str]:
    """Assignments of a title or sub-title in the UI that do not pass through `safe`."""
    return [
        f"{module}:{line} sets {name} without safe()"
        for module, path in modules_of(root).items()
        if module.startswith(f"{root.name}.tui")
        for line, name in facts_of(path).unsafe_titles
    ]


# -- the package ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def src(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package, its files' facts found once for the run's workers, in the folder
    they share."""
    share_facts(SRC, run_folder(tmp_path_factory) / "architecture")
    return SRC


def test_every_module_has_a_layer() -> None:
    assert unplaced(SRC) == []


def test_layers_import_only_downwards(src: Path) -> None:
    assert layer_violations(src) == []


def test_no_import_circle_in_the_package(src: Path) -> None:
    assert circles(import_graph(src)) == []


def test_private_apis_of_other_libraries_only_in_private_apis(src: Path) -> None:
    assert private_uses(src) == []


def test_every_title_passes_through_safe(src: Path) -> None:
    assert unsafe_titles(src) == []


def test_no_screen_imports_the_app(src: Path) -> None:
    assert screens_importing_the_app(src) == []


# The pages of the project's brief, which readers of the repository do not have.
BRIEF_PAGES = re.compile(r"\b(?:decisions|behaviour|api|delivery)\.md\b")


def brief_citations(root: Path, texts: Iterable[Path]) -> list[str]:
    """Each line of `texts` (under `root`) that cites a page of the project's brief."""
    found = []
    for path in texts:
        text = path.read_text()
        # Most files name no .md at all: those are not searched, nor split into lines.
        if ".md" in text and BRIEF_PAGES.search(text):
            lines = enumerate(text.splitlines(), 1)
            found += [
                f"{path.relative_to(root)}:{n}" for n, line in lines if BRIEF_PAGES.search(line)
            ]
    return found


def test_the_repository_stands_alone() -> None:
    """Comments, docstrings, tests and documents explain themselves: none cites the
    pages of the project's brief."""
    root = SRC.parents[1]
    texts = [
        *SRC.rglob("*.py"),
        *(root / "tests").rglob("*.py"),
        *(root / "benchmarks").rglob("*.py"),
        *(root / "docs").rglob("*.md"),
        root / "README.md",
        root / "BENCHMARKS.md",
    ]
    assert brief_citations(root, texts) == []


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
    assert layer_violations(root) == [] and circles(import_graph(root)) == []
    assert private_uses(root) == [] and unplaced(root) == []
    return root


@pytest.mark.parametrize("source", ["helpers.py", "utils/__init__.py"])
def test_a_planted_module_without_a_layer_fails(planted: Path, source: str) -> None:
    (planted / source).parent.mkdir(exist_ok=True)
    (planted / source).write_text('"""Helpers of everyone."""\n')
    assert unplaced(planted) == [module_name(planted / source, planted)]


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


@pytest.mark.parametrize(
    "back",
    [
        "def f():\n    from inboxdesk.writes import probe_a\n    return probe_a\nB = 2\n",
        # Type-only: it never runs, and still ties the two together.
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from inboxdesk.writes.probe_a import A\nB = 2\n",
    ],
)
def test_a_planted_circle_fails(planted: Path, back: str) -> None:
    (planted / "writes" / "probe_a.py").write_text("from .probe_b import B\nA = 1\n")
    (planted / "writes" / "probe_b.py").write_text(back)
    assert circles(import_graph(planted)) == [
        ["inboxdesk.writes.probe_a", "inboxdesk.writes.probe_b"]
    ]


def test_a_planted_circle_through_a_package_fails(planted: Path) -> None:
    (planted / "client" / "probe.py").write_text("from inboxdesk.client import InboxClient\n")
    init = planted / "client" / "__init__.py"
    init.write_text(init.read_text() + "from inboxdesk.client import probe\n")
    assert circles(import_graph(planted)) == [["inboxdesk.client", "inboxdesk.client.probe"]]


def test_a_planted_circle_of_three_fails(planted: Path) -> None:
    for name, imported in (("a", "b"), ("b", "c"), ("c", "a")):
        (planted / "core" / f"probe_{name}.py").write_text(f"from . import probe_{imported}\n")
    assert circles(import_graph(planted)) == [[f"inboxdesk.core.probe_{n}" for n in "abc"]]


@pytest.mark.parametrize(
    "source",
    [
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from inboxdesk.tui.app import InboxdeskApp\n",
        "def f():\n    from ..app import InboxdeskApp\n    return InboxdeskApp\n",
    ],
)
def test_a_planted_screen_importing_the_app_fails(planted: Path, source: str) -> None:
    (planted / "tui" / "app.py").write_text("class InboxdeskApp:\n    pass\n")
    (planted / "tui" / "inbox" / "probe.py").write_text(source)
    assert screens_importing_the_app(planted) == ["inboxdesk.tui.inbox.probe"]


@pytest.mark.parametrize(
    "where, text",
    [
        ("tests/test_probe.py", "# As decisions" + ".md says, a snooze ends within a year.\n"),
        ("docs/probe.md", "See behaviour" + ".md for the order.\n"),
        ("src/inboxdesk/probe.py", '"""The fields of api' + '.md."""\n'),
    ],
)
def test_a_planted_citation_of_the_brief_fails(tmp_path: Path, where: str, text: str) -> None:
    (tmp_path / where).parent.mkdir(parents=True)
    (tmp_path / where).write_text("Explained here.\n" + text)
    assert brief_citations(tmp_path, [tmp_path / where]) == [f"{where}:2"]


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


def test_facts_read_from_the_shared_copy_are_those_a_walk_finds(
    planted: Path, tmp_path: Path
) -> None:
    """The package's checks read the run's shared copy (`src`): were the copy to lose a
    fact, they would pass on nothing. Read back from it, each file's facts are those its
    walk finds, and planted violations of every check are still found."""
    (planted / "tui" / "probe.py").write_text(
        "import importlib\n"
        "from inboxdesk.server.app import create_app\n"
        "def f(app, footer, name):\n"
        "    app.title = name\n"
        "    importlib.import_module('..server', __name__)\n"
        "    return footer._bindings_ready, getattr(app, '_exception')\n"
    )
    shared = tmp_path / "shared"
    share_facts(planted, shared)  # found, and written for the others
    paths = [str(p) for p in planted.rglob("*.py")]
    for key in [k for k in _FACTS if k[0] in paths]:
        del _FACTS[key]
    share_facts(planted, shared)  # read back, as another worker reads it
    for path in map(Path, paths):
        assert _FACTS[(str(path), path.read_text())] == _facts(ast.parse(path.read_text()))
    assert [v for v in layer_violations(planted) if v.startswith("inboxdesk.tui.probe ")]
    assert len([v for v in private_uses(planted) if v.startswith("inboxdesk.tui.probe")]) == 2
    assert [v for v in unsafe_titles(planted) if v.startswith("inboxdesk.tui.probe")]
