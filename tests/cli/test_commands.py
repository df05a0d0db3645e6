"""The command line's commands load on first use: `inboxdesk` imports the app's alone."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

import inboxdesk.cli
from inboxdesk.cli import LAZY_COMMANDS, cli, main
from tests.conftest import STAGING_KEY, Service

# The modules that hold commands other than the app's.
OTHER_COMMANDS = {
    "inboxdesk.cli.api_commands",
    "inboxdesk.cli.config_commands",
    "inboxdesk.cli.history_commands",
    "inboxdesk.cli.inbox_commands",
    "inboxdesk.cli.integration_commands",
    "inboxdesk.cli.message_command",
    "inboxdesk.cli.preference_commands",
}
# What a read must not import.
WRITING = ("inboxdesk.writes", "inboxdesk.core.inbox.plans", "sqlite3")


def command_env(home: Path, url: str) -> dict[str, str]:
    """The environment of a fresh `inboxdesk` process: a home and config file of the
    test's own, `url` as the service and the staging key."""
    return {
        **os.environ,
        "HOME": str(home),
        "INBOXDESK_CONFIG": str(home / "config.toml"),
        "INBOXDESK_BASE_URL": url,
        "NOVU_SECRET_KEY": STAGING_KEY,
    }


def declared() -> dict[str, str]:
    """Every command a module of the command line declares, and that module."""
    found: dict[str, str] = {}
    for info in pkgutil.iter_modules(inboxdesk.cli.__path__):
        module = importlib.import_module(f"inboxdesk.cli.{info.name}")
        for command in getattr(module, "COMMANDS", []):
            assert isinstance(command, click.Command) and command.name
            found[command.name] = info.name
    return found


def test_the_table_names_every_command_and_the_module_that_declares_it() -> None:
    assert declared() == LAZY_COMMANDS


def test_each_name_gives_the_command_of_that_name() -> None:
    context = click.Context(cli)
    for name in LAZY_COMMANDS:
        command = cli.get_command(context, name)
        assert command is not None and command.name == name
    assert cli.get_command(context, "nosuch") is None


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    listed = [line.split()[0] for line in out.split("Commands:")[1].splitlines() if line]
    assert listed == sorted(LAZY_COMMANDS)


def test_an_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nosuch"]) == 2
    err = capsys.readouterr().err
    assert "No such command 'nosuch'" in err and "Did you mean" not in err


def test_a_mistyped_command_gets_the_close_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mesages"]) == 2
    err = capsys.readouterr().err
    assert "No such command 'mesages'" in err
    assert "Did you mean one of: 'message', 'messages'?" in err


def test_opening_the_app_imports_no_other_command_and_with_the_collector_paused(
    tmp_path: Path,
) -> None:
    """A fresh process (this one has imported every command already), stopped as the app
    starts to run: no other command's module was imported, and the command's module and
    the app, which build objects that live on, were imported with the collector paused:
    passes over them while they are imported are wasted start-up (entry.py). Its first
    frame's modules (the inbox screen's too) import the model of a write (its marks'
    keys need it), never the outbox, its events or its store (writes/__init__.py)."""
    code = (
        "import gc, os, sys\n"
        "from importlib.machinery import PathFinder\n"
        "counts = [0, 0, 0]\n"
        "def counted(phase, info):\n"
        "    counts[info['generation']] += phase == 'start'\n"
        "gc.callbacks.append(counted)\n"
        "def stop_at_run(*args, **kwargs):\n"
        "    print(*counts, flush=True)\n"
        "    print(' '.join(m for m in sys.modules if m.startswith('inboxdesk.cli.')))\n"
        "    import inboxdesk.tui.inbox.screen\n"
        "    print(*sorted(m for m in sys.modules\n"
        "                  if m.startswith('inboxdesk.writes.') or m == 'sqlite3'))\n"
        "    sys.stdout.flush()\n"
        "    os._exit(0)\n"
        # textual.app's App.run replaced as the module is first imported: a profile
        # hook on every call (sys.setprofile) doubled the process's CPU and made
        # collections of its own.
        "class StopAtRun:\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name != 'textual.app':\n"
        "            return None\n"
        "        spec = PathFinder.find_spec(name, path)\n"
        "        load = spec.loader.exec_module\n"
        "        def exec_module(module):\n"
        "            load(module)\n"
        "            module.App.run = stop_at_run\n"
        "        spec.loader.exec_module = exec_module\n"
        "        return spec\n"
        "sys.meta_path.insert(0, StopAtRun())\n"
        "sys.argv = ['inboxdesk', '--subscriber', 'ada']\n"
        "from inboxdesk.entry import main\n"
        "main()\n"
    )
    env = command_env(tmp_path, "http://127.0.0.1:9")
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    counts, modules, writes = done.stdout.splitlines()[-3:]
    passes = sum(map(int, counts.split()))
    # Paused: one or two (what click and the settings build). Unpaused, the command's
    # and the app's imports made 40 to 130 passes, more where no bytecode is cached.
    assert passes < 20, done.stdout
    loaded = set(modules.split())
    assert "inboxdesk.cli.app_commands" in loaded
    assert not loaded & OTHER_COMMANDS
    assert writes.split() == [
        "inboxdesk.writes.before",
        "inboxdesk.writes.effects",
        "inboxdesk.writes.model",
    ], done.stdout


def test_the_version_imports_neither_the_client_nor_the_settings_and_a_read_no_write(
    service: Service, tmp_path: Path
) -> None:
    """`--version` imports neither the client nor the settings. Then, in the same fresh
    process (each costs about a CPU-second of the suite), a read against the service (a
    listing, with its table and counts) imports none of the write machinery: the outbox,
    its journal (sqlite3), the write kinds, the plans (the write commands import them as
    they run); nor do the modules of other reads (their commands run no further here)."""
    code = (
        "import json, sys\n"
        "from inboxdesk.entry import main\n"
        "sys.argv = ['inboxdesk', '--version']\n"
        "main()\n"
        "print(*sorted(m for m in sys.modules if m.startswith('inboxdesk')))\n"
        "sys.argv = ['inboxdesk', 'messages', 'jane', '--limit', '3']\n"
        "status = main()\n"
        "import inboxdesk.cli.integration_commands, inboxdesk.cli.subscriber_commands\n"
        "wrote = sorted(m for m in sys.modules if m.startswith(WRITING))\n"
        "print('READ', json.dumps([status, wrote]))\n"
    ).replace("WRITING", repr(WRITING))
    env = command_env(tmp_path, service.url)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.startswith("inboxdesk, version ")
    lines = done.stdout.splitlines()
    loaded = lines[1].split()
    assert loaded == [
        "inboxdesk",
        "inboxdesk.cli",
        "inboxdesk.entry",
        "inboxdesk.gc_paused",
        "inboxdesk.private_apis",
    ]
    # The read ran whole (the listing's three rows and its counts).
    assert "(3 shown; more on --page 1" in done.stderr and len(lines) == 2 + 1 + 3 + 1
    assert json.loads(lines[-1].removeprefix("READ ")) == [0, []], done.stdout + done.stderr
