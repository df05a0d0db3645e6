"""The README's `sh` blocks run as written against the demo's service (what
`inboxdesk serve --demo` seeds and saves), whose ids (ada.lovelace, the seeded
transactionIds) are fixed. A line marked `(interactive)` or `(set-up)`, on itself or on
the comment line above it, is left out: the app, a service that runs until Ctrl-C
(started here instead), installing.

Each line runs in bash as written (pipes, `$(...)`, redirections). Its `inboxdesk` is a
stand-in on PATH that hands its process to this one, where the command line's `main()`
runs its arguments, standard input and environment and writes what it printed to the
stand-in's own outputs: a start of the command line costs more than half a CPU-second,
and a dozen lines here start it twenty times. The stand-in is a bash script (a Python
one cost 40 ms of CPU at each start, a script 3). That the console script starts as
`inboxdesk` is tests/cli/test_commands.py's to prove; `serve --demo`'s seeding, banner
and key files, tests/cli/test_serve.py's.
"""

from __future__ import annotations

import io
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from inboxdesk.cli import main
from inboxdesk.server.runner import ServiceThread
from inboxdesk.server.settings import ServerSettings
from tests.shared_service import SharedService
from tests.templates import demo_store

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


# The stand-in `inboxdesk`: its input read whole first (so the later command of a pipe
# asks only once the earlier one is done), then its process id handed to the runner,
# which reads its arguments and environment from /proc, writes what the command printed
# to the stand-in's own outputs and answers its exit status.
STAND_IN = """\
#!/bin/bash
cat > "$INBOXDESK_README_RUNNER_DIR/stdin.$$"
exec 3<>"/dev/tcp/127.0.0.1/$INBOXDESK_README_RUNNER_PORT"
printf '%s\\n' "$$" >&3
read -r code <&3
# What the command printed, as it printed it: a reader gone away ends cat as it would
# have ended the command, by SIGPIPE (141).
cat "$INBOXDESK_README_RUNNER_DIR/err.$$" >&2 || exit
cat "$INBOXDESK_README_RUNNER_DIR/out.$$" || exit
exit "$code"
"""


@pytest.fixture
def demo(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, shared_thread: SharedService
) -> Iterator[str]:
    """The demo's service as `inboxdesk serve --demo --db demo.db` leaves it, in the
    folder the README's commands run in: seeded now, each environment's key in
    demo-keys/, per-context preferences on. Its URL. It serves the app the run built for
    these settings (the context-preference tests' too): building one costs a quarter of a
    CPU-second."""
    db = tmp_path / "demo.db"
    store, loaded = demo_store(tmp_path_factory, db)
    keys = tmp_path / "demo-keys"
    keys.mkdir(mode=0o700)
    for env in loaded:
        target = keys / f"{env.name.casefold()}.key"
        target.write_text(env.api_key + "\n")
        target.chmod(0o600)
    settings = ServerSettings(db_path=db, context_preferences=True)
    try:
        app = shared_thread.app_for(settings, store)
        with ServiceThread(settings, store, app=app) as service:
            yield service.url
    finally:
        store.close()


class Runner:
    """Runs the stand-in's requests with `main()`, in this thread (signal handlers are
    the main thread's), one at a time: a stand-in reads all its input before it asks,
    so the later command of a pipe asks only once the earlier one is done."""

    def __init__(self, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys
        self.folder = folder / "runner"
        self.folder.mkdir()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.listener.settimeout(60)  # a bound on a hang, not a speed target
        self.served = 0  # the commands the last line ran
        self.bin = folder / "bin"
        self.bin.mkdir()
        self.stand_in = self.bin / "inboxdesk"
        self.stand_in.write_text(STAND_IN)
        self.stand_in.chmod(0o700)

    def run(self, line: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        """`line` in bash, its `inboxdesk` served here."""
        shell = subprocess.Popen(
            ["bash", "-o", "pipefail", "-c", line],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={
                **env,
                "INBOXDESK_README_RUNNER_DIR": str(self.folder),
                "INBOXDESK_README_RUNNER_PORT": str(self.port),
            },
        )
        self.served = 0
        said: list[str] = []

        def read() -> None:
            said.extend(shell.communicate())
            # The line has ended: an empty request wakes the loop below (polling for the
            # end cost up to 50 ms a line).
            socket.create_connection(("127.0.0.1", self.port)).close()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        while True:
            conn, _ = self.listener.accept()
            with conn:
                conn.settimeout(None)
                asked = conn.makefile("rb").readline().strip()
                if not asked:
                    break
                conn.sendall(b"%d\n" % self._serve(int(asked)))
            self.served += 1
        reader.join()
        return subprocess.CompletedProcess(line, shell.wait(), *said)

    def _serve(self, pid: int) -> int:
        """The stand-in `pid`'s command run here, what it printed left beside its
        stdin for it to print; its exit status."""
        proc = Path(f"/proc/{pid}")
        words = [os.fsdecode(w) for w in (proc / "cmdline").read_bytes().split(b"\0")[:-1]]
        assert Path(words[1]) == self.stand_in, words
        environ = (proc / "environ").read_bytes().split(b"\0")
        request = dict(os.fsdecode(v).split("=", 1) for v in environ if b"=" in v)
        given = self.folder / f"stdin.{pid}"
        stdin_bytes = given.read_bytes()
        given.unlink()
        saved = dict(os.environ)
        stdin = sys.stdin
        os.environ.clear()
        os.environ.update(request)
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin_bytes))
        try:
            code = main(words[2:])
        finally:
            sys.stdin = stdin
            os.environ.clear()
            os.environ.update(saved)
        out, err = self.capsys.readouterr()
        (self.folder / f"out.{pid}").write_text(out)
        (self.folder / f"err.{pid}").write_text(err)
        return code


@pytest.mark.slow
def test_the_readme_s_commands_run_as_written_on_the_demo(
    demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = README.read_text(encoding="utf-8").replace(RECIPE_URL, demo)
    blocks = sh_blocks(text)
    # The recipe (its profile) first, then the rest in the README's order.
    recipe = next(b for b in blocks if any("add-profile" in line for line in b))
    ordered = [recipe, *(b for b in blocks if b is not recipe)]
    runner = Runner(tmp_path, capsys)
    environment = {
        **os.environ,
        "HOME": str(tmp_path),
        "INBOXDESK_CONFIG_DIR": str(tmp_path / "config"),
        "PATH": f"{runner.bin}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    for name in ("NOVU_SECRET_KEY", "INBOXDESK_PROFILE", "INBOXDESK_BASE_URL"):
        environment.pop(name, None)
    said: dict[str, str] = {}
    for line in (line for block in ordered for line in block):
        ran = runner.run(line, tmp_path, environment)
        assert ran.returncode == 0, (line, ran.stdout, ran.stderr)
        assert "Traceback" not in ran.stderr, line
        assert runner.served >= 1, f"{line}: no inboxdesk command ran"
        said[line] = ran.stdout
    delivery = next(out for line, out in said.items() if line.startswith("inboxdesk delivery"))
    assert "bounced" in delivery, "the demo's bounce, by its fixed transactionId"
    failed = next(out for line, out in said.items() if "activity ada.lovelace --failed" in line)
    assert "Attempt to send to unsubscribed recipient" in failed
    assert (tmp_path / "audit.csv").stat().st_size > 0
