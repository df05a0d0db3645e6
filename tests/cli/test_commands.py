"""The command line's commands load on first use: `inboxdesk` imports the app's alone."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import click
import pytest

import inboxdesk.cli
from inboxdesk.cli import LAZY_COMMANDS, cli, main

# The modules that hold commands other than the app's.
OTHER_COMMANDS = {
    "inboxdesk.cli.api_commands",
    "inboxdesk.cli.config_commands",
    "inboxdesk.cli.history_commands",
    "inboxdesk.cli.inbox_commands",
    "inboxdesk.cli.integration_commands",
    "inboxdesk.cli.message_command",
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
    assert "No such command 'nosuch'" in capsys.readouterr().err


def test_opening_the_app_imports_no_other_command() -> None:
    # A fresh process: this one has imported every command already.
    code = (
        "import sys\n"
        "from inboxdesk.cli import main\n"
        "main(['tui', '--help'])\n"
        "print(' '.join(m for m in sys.modules if m.startswith('inboxdesk.cli.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(done.stdout.splitlines()[-1].split())
    assert "inboxdesk.cli.app_commands" in loaded
    assert not loaded & OTHER_COMMANDS
