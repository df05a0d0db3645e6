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
    "client": ("textual", "inboxdesk.tui", "inboxdesk.server", "inboxdesk.cli", "fastapi"),
    "server": ("textual", "inboxdesk.tui", "inboxdesk.client", "inboxdesk.cli"),
    "tui": ("inboxdesk.server", "inboxdesk.cli", "httpx", "fastapi", "uvicorn"),
}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
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


def test_the_contract_would_catch_a_violation(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text("from inboxdesk.server.store import Store\nimport textual.app\n")
    assert {"inboxdesk.server.store", "textual.app"} <= imports(sample)
