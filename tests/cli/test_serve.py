"""`inboxdesk serve` refuses bad arguments in one line, before touching anything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from inboxdesk.cli import main


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


def started(
    *args: str, last: str, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[str], str]:
    """Start `serve` and read its banner up to the line holding `last`; it keeps running."""
    service = subprocess.Popen(
        [sys.executable, "-m", "inboxdesk", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert service.stdout is not None and service.stderr is not None
    lines = []
    try:
        for line in service.stdout:
            lines.append(line)
            if last in line:
                break
    except BaseException:
        stopped(service)
        raise
    return service, "".join(lines)


def stopped(service: subprocess.Popen[str]) -> tuple[str, str]:
    """Stop it; the rest of its output and its errors."""
    service.terminate()
    return service.communicate(timeout=30)


def serve_until_ready(*args: str, last: str) -> tuple[str, str]:
    """Start `serve`, read its banner up to the line holding `last`, then stop it."""
    service, banner = started(*args, last=last)
    rest, err = stopped(service)
    return banner + rest, err


def test_demo_saves_its_keys_privately_and_never_prints_them(tmp_path: Path) -> None:
    import httpx

    service, out = started(
        "--db", str(tmp_path / "local.db"), "--demo", "--port", "0", last="save a key"
    )
    try:
        url = out.split("local service on ", 1)[1].split()[0]
        saved = tmp_path / "local-keys" / "development.key"
        key = saved.read_text().strip()
        assert len(key) >= 16 and key not in out
        assert f"Development API key ••••{key[-4:]} in {saved} (mode 0600)" in out
        assert saved.stat().st_mode & 0o777 == 0o600
        assert (tmp_path / "local-keys").stat().st_mode & 0o777 == 0o700
        assert (
            f"save a key as a profile: inboxdesk config add-profile local-{url.rsplit(':')[-1]} "
            f"--base-url {url} --api-key - < {saved}" in out
        )
        # The saved key is the one the service takes.
        answer = httpx.get(f"{url}/v1/integrations", headers={"Authorization": f"ApiKey {key}"})
        assert answer.status_code == 200
    finally:
        rest, err = stopped(service)
    assert key not in rest + err and "warning" not in err


def test_a_host_beyond_loopback_is_warned_about(tmp_path: Path) -> None:
    out, err = serve_until_ready(
        "--db",
        str(tmp_path / "local.db"),
        "--demo",
        "--port",
        "0",
        "--host",
        "0.0.0.0",
        last="save a key",
    )
    assert "warning: --host 0.0.0.0 is not loopback" in err
    key = (tmp_path / "local-keys" / "production.key").read_text().strip()
    assert key not in out and f"Production API key ••••{key[-4:]}" in out
    assert "--base-url http://127.0.0.1:" in out


def test_serve_on_a_fresh_machine_creates_its_private_data_directory(tmp_path: Path) -> None:
    """An empty HOME and no --db: the default data directory is made, mode 0700."""
    import os

    home = tmp_path / "home"
    home.mkdir()
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
    service, banner = started("--demo", "--port", "0", last="save a key", env=env)
    rest, err = stopped(service)
    out = banner + rest
    assert "Development API key" in out, err
    assert "Traceback" not in err and "crashed" not in err
    data = next(home.rglob("local.db")).parent
    assert data.is_relative_to(home)
    assert data.stat().st_mode & 0o777 == 0o700


def test_fixture_names_are_printed_safe(tmp_path: Path) -> None:
    import json

    fixture = {"environments": [{"name": "Stag\x1b]0;pwned\x07ing"}]}
    path = tmp_path / "f.json"
    path.write_text(json.dumps(fixture))
    out, _ = serve_until_ready(
        "--db", str(tmp_path / "local.db"), "--load", str(path), "--port", "0", last="API key"
    )
    assert "\x1b" not in out and "\x07" not in out and "Stag␛]0;pwned" in out


def test_the_banners_profile_command_works_as_printed_again_and_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import shlex
    import socket

    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    for name in ("NOVU_SECRET_KEY", "INBOXDESK_BASE_URL", "INBOXDESK_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    # A `local` profile already there: the old banner's add-profile local exited 2.
    monkeypatch.setattr("sys.stdin", io.StringIO("some-other-key-0123456789\n"))
    assert main(["config", "init", "--profile", "local", "--region", "us", "--api-key", "-"]) == 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    said = []
    for run in range(2):  # a fresh demo twice on one port: new keys, the same profile
        # The command is run while the service runs: a profile's key is filed under the
        # environment the service names.
        service, out = started(
            *("--db", str(tmp_path / f"local{run}.db"), "--demo", "--port", str(port)),
            last="save a key",
        )
        try:
            line = next(x for x in out.splitlines() if "save a key as a profile:" in x)
            command, key_file = line.split(": ", 1)[1].rsplit(" < ", 1)
            said.append(command)
            words = shlex.split(command)
            assert words[0] == "inboxdesk"
            key = Path(shlex.split(key_file)[0]).read_text()
            monkeypatch.setattr("sys.stdin", io.StringIO(key))
            code = main(words[1:])
            assert code == 0, capsys.readouterr().err
        finally:
            stopped(service)
    assert said[0].startswith(f"inboxdesk config add-profile local-{port} --base-url ")
    assert said[1] == f"inboxdesk config set api_key - --profile local-{port}"
    capsys.readouterr()
    assert main(["config", "show", "--profile", f"local-{port}", "--json"]) == 0
    assert f"127.0.0.1:{port}" in capsys.readouterr().out


def test_an_empty_keyless_database_offers_the_demo(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    out, err = serve_until_ready("--db", str(db), "--port", "0", last="local service on")
    assert f"run `inboxdesk serve --demo --db {db}` for demo data" in err
    assert "API key ••••" not in out, "nothing seeded without asking"


def test_org_wide_integrations_answers_as_an_older_deployment(tmp_path: Path) -> None:
    import httpx

    from tests.conftest import EXAMPLE, STAGING_KEY

    db = tmp_path / "local.db"
    service, out = started(
        "--db", str(db), "--load", str(EXAMPLE), "--port", "0", "--org-wide-integrations",
        last="save a key",
    )  # fmt: skip
    try:
        url = out.split("local service on ", 1)[1].split()[0]
        answer = httpx.get(
            f"{url}/v1/integrations", headers={"Authorization": f"ApiKey {STAGING_KEY}"}
        )
        assert answer.status_code == 200
        assert len({i["_environmentId"] for i in answer.json()["data"]}) == 2
    finally:
        stopped(service)
    # It holds keys: the database is its owner's alone.
    assert db.stat().st_mode & 0o077 == 0
