"""The wheel as a user installs it: the example fixture inside, and a long description
without pictures or links that only work beside the README.

Built in this process by the backend pyproject.toml names, through the PEP 517 hook pip
calls: `pip wheel` took four CPU-seconds, most of them pip's start and a fresh build
environment (the backend is installed with the dev tools, at the constrained version)."""

from __future__ import annotations

import importlib
import re
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_wheel_ships_the_examples_and_a_description_without_relative_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    backend = importlib.import_module(project["build-backend"])
    monkeypatch.chdir(ROOT)  # a PEP 517 hook builds the project it is run in
    backend.build_wheel(str(tmp_path))
    (wheel,) = tmp_path.glob("inboxdesk-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
    assert "inboxdesk/examples/inbox.json" in names
    description = metadata.decode().split("\n\n", 1)[1]
    targets = re.findall(r"\]\(([^)]*)\)", description)
    assert all(t.startswith(("http://", "https://")) for t in targets), targets
    assert "inboxdesk" in description
