"""`inboxdesk serve`: bad arguments refused in one line, before touching anything; the
banner, the keys it saves, the warnings. Each runs in this process (a start of the
command costs more than half a CPU-second), as tests/cli/test_serve_stop.py's stops do;
tests/server/test_crash.py starts it as a process, where the process is what it tests."""

from __future__ import annotations

import io
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from inboxdesk.cli import main
from tests import waiting
from tests.client.faults import answers, loopback_client
from tests.conftest import EXAMPLE, STAGING_KEY


def serve(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    """A refused `serve`, in this process: it ends before serving anything."""
    code = main(["serve", *args])
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["serve", *args], code, out, err)


def test_a_database_in_a_missing_directory_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no" / "such"
    result = serve(capsys, "--db", str(missing / "local.db"), "--demo", "--port", "0")
    assert result.returncode == 2
    assert f"no directory {missing}" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "no").exists()


def test_a_port_out_of_range_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = serve(capsys, "--db", str(tmp_path / "local.db"), "--port", "70000")
    assert result.returncode == 2
    assert "a port is 0 to 65535, not 70000" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "local.db").exists()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def serving(
    capsys: pytest.CaptureFixture[str],
    *args: str,
    port: int | None = None,
    during: Callable[[str, str], None] = lambda url, banner: None,
    stop_with: signal.Signals = signal.SIGTERM,
) -> tuple[int, str, str]:
    """`inboxdesk serve ARGS --port PORT` in this process, as a user runs it: `during`
    is handed its loopback URL and what it printed once it answers, on another thread,
    and then it is
    stopped as a service manager stops it (SIGTERM), or with `stop_with` (SIGINT: as
    Ctrl-C does). Its exit status, standard output and errors; what `during` raised is
    raised here.

    The command runs on the main thread, where it takes the signal over before it
    serves: the signal is sent only once it answers, so it never meets the test run's
    own handling of it."""
    port = port or free_port()
    url = f"http://127.0.0.1:{port}"
    ended = threading.Event()
    failed: list[BaseException] = []
    said: list[tuple[str, str]] = []
    # The handler the command replaces while it serves (the test run's own, maybe).
    before = signal.getsignal(stop_with)

    def watch() -> None:
        try:
            waiting.wait_for(
                "the service", lambda: ended.is_set() or answers(f"{url}/v1/integrations"), 60, 0.02
            )
            if not ended.is_set():
                said.append(capsys.readouterr())
                during(url, said[0][0])
        except BaseException as exc:
            failed.append(exc)
        finally:
            if not ended.is_set() and signal.getsignal(stop_with) != before:
                os.kill(os.getpid(), stop_with)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        code = main(["serve", *args, "--port", str(port)])
    finally:
        ended.set()
        watcher.join(timeout=60)
    out, err = capsys.readouterr()
    if failed:
        raise failed[0]
    banner, before = said[0] if said else ("", "")
    return code, banner + out, before + err


def test_the_demo_on_a_fresh_machine_keeps_its_keys_private_and_its_profile_command_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An empty HOME and no --db: the default data directory is made, mode 0700; the
    demo's keys are saved there, private, and never printed; the banner's profile command
    works as printed, run while the service runs (a profile's key is filed under the
    environment the service names), and again for another service on the same port."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("INBOXDESK_DATA_DIR", "XDG_DATA_HOME", "NOVU_SECRET_KEY", "INBOXDESK_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    # A `local` profile already there: the old banner's add-profile local exited 2.
    monkeypatch.setattr("sys.stdin", io.StringIO("some-other-key-0123456789\n"))
    assert main(["config", "init", "--profile", "local", "--region", "us", "--api-key", "-"]) == 0
    capsys.readouterr()
    port = free_port()
    ran: list[tuple[str, int]] = []

    def run_the_banners_command(url: str, banner: str) -> None:
        data = next(home.rglob("local.db")).parent
        saved = data / "local-keys" / "development.key"
        line = next(x for x in banner.splitlines() if "save a key as" in x)
        command, key_file = line.split(": ", 1)[1].rsplit(" < ", 1)
        assert Path(shlex.split(key_file)[0]) in (saved, data / "local1-keys" / "staging.key")
        key = Path(shlex.split(key_file)[0]).read_text()
        if "local1" not in key_file:
            # The saved key is the one the service takes, and the demo keeps preferences
            # per context, as `inboxdesk demo` does: Ada's tenant turned comment emails
            # off there only.
            headers = {"Authorization": f"ApiKey {key.strip()}"}
            with loopback_client(base_url=url, headers=headers) as http:
                assert http.get("/v1/integrations").status_code == 200
                path = "/v2/subscribers/ada.lovelace/preferences"
                tenant = http.get(path, params={"contextKeys": "tenant:acme-eu"}).json()
            comment = next(
                w
                for w in tenant["data"]["workflows"]
                if w["workflow"]["name"] == "Comment on your post"
            )
            assert comment["channels"]["email"] is False
        words = shlex.split(command)
        assert words[0] == "inboxdesk"
        sys.stdin = io.StringIO(key)
        ran.append((command, main(words[1:])))

    code, out, err = serving(capsys, "--demo", port=port, during=run_the_banners_command)
    assert code == 0, err
    data = next(home.rglob("local.db")).parent
    assert data.is_relative_to(home)
    assert data.stat().st_mode & 0o777 == 0o700
    saved = data / "local-keys" / "development.key"
    key = saved.read_text().strip()
    assert len(key) >= 16 and key not in out + err
    assert f"Development API key ••••{key[-4:]} in {saved} (mode 0600)" in out
    assert saved.stat().st_mode & 0o777 == 0o600
    assert (data / "local-keys").stat().st_mode & 0o777 == 0o700
    url = f"http://127.0.0.1:{port}"
    assert (
        f"save a key as a profile: inboxdesk config add-profile local-{port} "
        f"--base-url {url} --api-key - < {saved}" in out
    )
    assert "Traceback" not in err and "crashed" not in err and "warning" not in err
    # Another service on the same port: new keys, the same profile, now `config set`.
    code, out, err = serving(
        capsys, "--db", str(data / "local1.db"), "--load", str(EXAMPLE), port=port,
        during=run_the_banners_command,
    )  # fmt: skip
    assert code == 0, err
    assert [command for command, _ in ran] == [
        f"inboxdesk config add-profile local-{port} --base-url {url} --api-key -",
        f"inboxdesk config set api_key - --profile local-{port}",
    ]
    assert [code for _, code in ran] == [0, 0], err
    assert main(["config", "show", "--profile", f"local-{port}", "--json"]) == 0
    assert f"127.0.0.1:{port}" in capsys.readouterr().out


def test_a_service_for_others_warns_prints_names_safe_and_answers_org_wide(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One start of the command (each builds the service's app) for what its flags and
    fixtures change: a host beyond loopback is warned about and the banner's commands
    still name loopback; a fixture's names are printed safe; --org-wide-integrations
    answers as an older deployment; a database that holds keys is its owner's alone."""
    hostile = {"environments": [{"name": "Stag\x1b]0;pwned\x07ing"}]}
    names = tmp_path / "f.json"
    names.write_text(json.dumps(hostile))

    def listed(url: str, banner: str) -> None:
        with loopback_client(url) as http:
            answer = http.get(
                "/v1/integrations", headers={"Authorization": f"ApiKey {STAGING_KEY}"}
            )
        assert answer.status_code == 200
        assert len({i["_environmentId"] for i in answer.json()["data"]}) == 2

    db = tmp_path / "local.db"
    args = ("--db", str(db), "--load", str(EXAMPLE), "--load", str(names))
    flags = ("--host", "0.0.0.0", "--org-wide-integrations")
    code, out, err = serving(capsys, *args, *flags, during=listed)
    assert code == 0, err
    assert "warning: --host 0.0.0.0 is not loopback" in err
    key = (tmp_path / "local-keys" / "other.key").read_text().strip()
    assert key not in out and f"Other API key ••••{key[-4:]}" in out
    assert "--base-url http://127.0.0.1:" in out
    assert "\x1b" not in out and "\x07" not in out and "Stag␛]0;pwned" in out
    # It holds keys: the database is its owner's alone.
    assert db.stat().st_mode & 0o077 == 0


def test_an_empty_keyless_database_offers_the_demo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "empty.db"
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # a script's: no terminal
    code, out, err = serving(capsys, "--db", str(db))
    assert code == 0, err
    assert "local service on" in out
    assert f"run `inboxdesk serve --demo --db {db}` for demo data" in err
    assert "API key ••••" not in out, "nothing seeded without asking"
