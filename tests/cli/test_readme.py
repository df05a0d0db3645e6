"""The README's `sh` blocks run as written against `inboxdesk serve --demo`, whose ids
(ada.lovelace, the seeded transactionIds) are fixed. A line marked `(interactive)` or
`(set-up)`, on itself or on the comment line above it, is left out: the app, a
service that runs until Ctrl-C (started here instead), installing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
MARKERS = ("(interactive)", "(set-up)")
# The recipe's address, replaced by the port the service here was given.
RECIPE_URL = "http://127.0.0.1:3000"


def sh_blocks(text: str) -> list[list[str]]:
    """Each ```sh block's command lines, marked ones left out."""
    blocks = []
    for body in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S):
        lines: list[str] = []
        skip_next = False
        for line in body.splitlines():
            if not line.strip():
                continue
            marked = any(m in line for m in MARKERS)
            if line.lstrip().startswith("#"):
                skip_next = marked
                continue
            if not (marked or skip_next):
                lines.append(line)
            skip_next = False
        blocks.append(lines)
    return blocks


def test_the_readme_names_the_demo_s_real_ids() -> None:
    text = README.read_text(encoding="utf-8")
    commands = "\n".join(line for block in sh_blocks(text) for line in block)
    assert "ada.lovelace" in commands
    assert not re.search(r"\bada\b(?!\.lovelace)", commands), "the demo's id is ada.lovelace"
    assert not re.search(r"\.\.\.|8f3c", commands), "no placeholder ids"


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[str]:
    """`inboxdesk serve --demo` in the folder the README's commands run in: its URL."""
    service = subprocess.Popen(
        [sys.executable, "-m", "inboxdesk", "serve", "--demo", "--db", "demo.db", "--port", "0"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    try:
        assert service.stdout is not None
        first = service.stdout.readline()  # printed once it listens
        found = re.search(r"http://127\.0\.0\.1:\d+", first)
        assert found, first
        yield found.group(0)
    finally:
        service.terminate()
        service.wait(timeout=30)


@pytest.mark.slow
def test_the_readme_s_commands_run_as_written_on_the_demo(demo: str, tmp_path: Path) -> None:
    text = README.read_text(encoding="utf-8").replace(RECIPE_URL, demo)
    blocks = sh_blocks(text)
    # The recipe (its profile) first, then the rest in the README's order.
    recipe = next(b for b in blocks if any("add-profile" in line for line in b))
    ordered = [recipe, *(b for b in blocks if b is not recipe)]
    environment = {
        **os.environ,
        "HOME": str(tmp_path),
        "INBOXDESK_CONFIG_DIR": str(tmp_path / "config"),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    for name in ("NOVU_SECRET_KEY", "INBOXDESK_PROFILE", "INBOXDESK_BASE_URL"):
        environment.pop(name, None)
    said: dict[str, str] = {}
    for line in (line for block in ordered for line in block):
        ran = subprocess.run(
            ["bash", "-o", "pipefail", "-c", line],
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env=environment,
            timeout=120,  # a bound on a hang, not a speed target
        )
        assert ran.returncode == 0, (line, ran.stdout, ran.stderr)
        assert "Traceback" not in ran.stderr, line
        said[line] = ran.stdout
    delivery = next(out for line, out in said.items() if line.startswith("inboxdesk delivery"))
    assert "bounced" in delivery, "the demo's bounce, by its fixed transactionId"
    failed = next(out for line, out in said.items() if "activity ada.lovelace --failed" in line)
    assert "Attempt to send to unsubscribed recipient" in failed
    assert (tmp_path / "audit.csv").stat().st_size > 0
