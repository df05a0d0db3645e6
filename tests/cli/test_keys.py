"""Keys are checked where they enter; an error never contains the key."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from inboxdesk.cli import main

SECRET = "sk0123456789abcdefQZXJ"
BAD = [SECRET + " ", SECRET + "\n", "sk01234\t56789abcdefQZXJ", SECRET + "é"]


Run = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def here(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    """`run`, in this process (no interpreter start-up): a crash fails the test itself."""

    def call(
        args: list[str], tmp_path: Path, stdin: str = "", **env: str
    ) -> subprocess.CompletedProcess[str]:
        monkeypatch.delenv("NOVU_SECRET_KEY", raising=False)
        monkeypatch.setenv("INBOXDESK_CONFIG", str(tmp_path / "config.toml"))
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = main(args)
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out, err)

    return call


def refused(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 2, result.stderr
    assert "API key" in result.stderr
    assert "Traceback" not in result.stderr
    assert "QZXJ" not in result.stdout + result.stderr and "sk0123" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("key", BAD, ids=["space", "newline", "tab", "non-ascii"])
def test_a_bad_key_is_refused_from_the_environment_and_flags(
    key: str, tmp_path: Path, here: Run
) -> None:
    refused(here(["integrations"], tmp_path, NOVU_SECRET_KEY=key))
    refused(here(["integrations", "--api-key", key], tmp_path))


@pytest.mark.parametrize("key", BAD[2:], ids=["tab", "non-ascii"])
def test_a_bad_key_is_refused_from_stdin(key: str, tmp_path: Path, here: Run) -> None:
    refused(here(["config", "add-profile", "work", "--api-key", "-"], tmp_path, stdin=key + "\n"))
    assert not (tmp_path / "config.toml").exists()


def test_a_bad_key_in_a_profile_is_refused_when_used(tmp_path: Path, here: Run) -> None:
    (tmp_path / "config.toml").write_text(
        f'default_profile = "p"\n[profiles.p]\napi_key = "{SECRET} "\n', encoding="utf-8"
    )
    (tmp_path / "config.toml").chmod(0o600)
    result = here(["integrations"], tmp_path)
    refused(result)
    assert "profile p" in result.stderr


def test_bad_numbers_in_the_environment_get_one_line(tmp_path: Path, here: Run) -> None:
    for name, value in (("INBOXDESK_TIMEOUT", "nan"), ("INBOXDESK_AUTO_REFRESH", "soon")):
        result = here(["config", "show"], tmp_path, **{name: value})
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_keymap_that_collides_in_a_view_is_refused_naming_both(tmp_path: Path, here: Run) -> None:
    result = here(["config", "set", "app.keymap.inbox.mark_read", "u"], tmp_path)
    assert result.returncode == 2, result.stderr
    assert "inbox.mark_read and inbox.mark_unread would both be on u" in result.stderr
    assert (
        not (tmp_path / "config.toml").exists()
        or "mark_read" not in (tmp_path / "config.toml").read_text()
    )
    # A key used only in another view is free here; a move of both is fine too.
    result = here(["config", "set", "app.keymap.inbox.mark_read", "w"], tmp_path)
    assert result.returncode == 0, result.stderr


# A FIFO or a device would hang a reader, and deep nesting may end the interpreter: these
# run in a process of their own, which a test run outlives (one process for the three:
# `config show` on each file in turn). A huge file is only large: in this process.
IN_A_PROCESS = """
import contextlib, io, json, os, sys
from inboxdesk.cli import main
said = {}
for kind, path in json.loads(sys.argv[1]).items():
    os.environ["INBOXDESK_CONFIG"] = path
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["config", "show"])
    said[kind] = [code, out.getvalue(), err.getvalue()]
print(json.dumps(said))
"""


def not_a_config_file(kind: str, tmp_path: Path) -> Path:
    path = tmp_path / f"{kind}.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path = Path("/dev/zero")
    elif kind == "deep":
        path.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    else:
        path.write_text("# " + "x" * (2 << 20) + "\n")
    return path


def one_line(result: subprocess.CompletedProcess[str], path: Path) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and str(path) in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_config_file_that_is_not_one_is_one_line_never_a_hang(tmp_path: Path) -> None:
    paths = {kind: not_a_config_file(kind, tmp_path) for kind in ("fifo", "device", "deep")}
    environ = {k: v for k, v in os.environ.items() if k != "NOVU_SECRET_KEY"}
    done = subprocess.run(
        [sys.executable, "-c", IN_A_PROCESS, json.dumps({k: str(p) for k, p in paths.items()})],
        capture_output=True,
        text=True,
        env=environ,
        timeout=60,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    said = json.loads(done.stdout)
    for kind, path in paths.items():
        one_line(subprocess.CompletedProcess(kind, *said[kind]), path)


def test_a_huge_config_file_is_one_line(tmp_path: Path, here: Run) -> None:
    path = not_a_config_file("huge", tmp_path)
    one_line(here(["config", "show"], tmp_path, INBOXDESK_CONFIG=str(path)), path)
