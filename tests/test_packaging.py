"""The wheel as a user installs it: the example fixture inside, and a long description
without pictures or links that only work beside the README."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_wheel_ships_the_examples_and_a_description_without_relative_links(
    tmp_path: Path,
) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("inboxdesk-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
    assert "inboxdesk/examples/inbox.json" in names
    description = metadata.decode().split("\n\n", 1)[1]
    targets = re.findall(r"\]\(([^)]*)\)", description)
    assert all(t.startswith(("http://", "https://")) for t in targets), targets
    assert "inboxdesk" in description
