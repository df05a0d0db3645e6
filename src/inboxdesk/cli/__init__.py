"""The `inboxdesk` command line: the service, the app, and scriptable API calls.

`main(argv) -> int` is the entry point of the tests; the console script and `python -m
inboxdesk` reach it through entry.py. It runs the click group in non-standalone mode
and turns every error into one line and an exit status.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence

import click

from inboxdesk import __version__
from inboxdesk.gc_paused import collector_paused

# Words that mean the group itself, not options of the app.
_OWN = {"-h", "--help", "-V", "--version"}


# Each command and the module that defines it, imported when the command is run, so
# that `inboxdesk` imports the app's command alone (click's "lazily loading
# subcommands"). tests/cli/test_commands.py checks this against the modules' COMMANDS.
LAZY_COMMANDS = {
    "serve": "serve",
    "tui": "app_commands",
    "demo": "app_commands",
    "environments": "integration_commands",
    "integrations": "integration_commands",
    "set-primary": "integration_commands",
    "subscribers": "api_commands",
    "counts": "api_commands",
    "messages": "api_commands",
    "mark-as": "api_commands",
    "mark-all": "api_commands",
    "history": "history_commands",
    "undo": "history_commands",
    "archive": "inbox_commands",
    "unarchive": "inbox_commands",
    "snooze": "inbox_commands",
    "unsnooze": "inbox_commands",
    "archive-all": "inbox_commands",
    "message": "message_command",
    "preferences": "preference_commands",
    "set-preference": "preference_commands",
    "set-schedule": "preference_commands",
    "subscriber": "subscriber_commands",
    "set-subscriber": "subscriber_commands",
    "credentials": "subscriber_commands",
    "subscriptions": "subscription_commands",
    "activity": "activity_across",
    "delivery": "delivery_commands",
    "send": "send_command",
    "resend": "resend_commands",
    "cancel": "resend_commands",
    "config": "config_commands",
}


def command_named(name: str) -> click.Command:
    """The command `name`, its module imported now, as entry.py imports the command line."""
    with collector_paused():
        module = importlib.import_module(f"inboxdesk.cli.{LAZY_COMMANDS[name]}")
    found: click.Command = next(c for c in module.COMMANDS if c.name == name)
    return found


class AppByDefault(click.Group):
    """Bare `inboxdesk`, or options alone (`inboxdesk --profile eu`), open the app.
    Commands load on first use (LAZY_COMMANDS)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(LAZY_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return command_named(cmd_name) if cmd_name in LAZY_COMMANDS else None

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as exc:
            # click suggests from the commands it holds, and holds none until loaded.
            raise click.exceptions.NoSuchCommand(
                exc.command_name, possibilities=LAZY_COMMANDS, ctx=ctx
            ) from None

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        args = commands_first(args)
        if not ctx.resilient_parsing and (
            not args or (args[0].startswith("-") and args[0] not in _OWN)
        ):
            args = ["tui", *args]
        return super().parse_args(ctx, args)


# Options every command takes, accepted before the command's name too (`inboxdesk
# --profile work integrations`): moved after it, where the command reads them.
GLOBAL_FLAGS = frozenset({"--json", "--read-only"})


def commands_first(args: list[str]) -> list[str]:
    """`args` with the global options written before a command's name moved after it
    (after a `config` subcommand's name); anything else is left as it is."""
    if not args or not args[0].startswith("--") or not any(a in LAZY_COMMANDS for a in args):
        return args
    # Only when options come before a command: the app and --version import no settings.
    from inboxdesk.config.models import CONNECTION_FIELDS

    with_value = {"--profile", *(f"--{name.replace('_', '-')}" for name in CONNECTION_FIELDS)}
    moved: list[str] = []
    at = 0
    while at < len(args):
        name = args[at].split("=", 1)[0]
        if name in with_value:
            step = 1 if "=" in args[at] else 2
        elif name in GLOBAL_FLAGS:
            step = 1
        else:
            break
        moved += args[at : at + step]
        at += step
    if not moved or at >= len(args) or args[at] not in LAZY_COMMANDS:
        return args
    command, rest = args[at], args[at + 1 :]
    if command == "config" and rest and not rest[0].startswith("-"):
        return [command, rest[0], *moved, *rest[1:]]
    return [command, *moved, *rest]


@click.group(cls=AppByDefault, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="inboxdesk")
def cli() -> None:
    """Inbox and integrations of a notification service, in the terminal.

    With no command, opens the app (as `inboxdesk tui`).
    """


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    stdout, stderr = sys.stdout, sys.stderr
    try:
        code = cli.main(words, prog_name="inboxdesk", standalone_mode=False)
    except click.ClickException as exc:  # a usage error: click says what and how
        exc.show()
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except SystemExit:
        # click turns a closed pipe into exit 1 after swapping sys.stdout for a wrapper
        # that hides the error: a swapped stdout is how the pipe's end shows here.
        if sys.stdout is not stdout:
            sys.stdout, sys.stderr = stdout, stderr
            return _closed_pipe()
        raise
    except (click.Abort, KeyboardInterrupt):
        # The terminal echoed ^C where the cursor was: the shell's prompt starts a line.
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _closed_pipe()
    except Exception as exc:
        return _failed(exc)
    return code if isinstance(code, int) else 0


def _failed(exc: Exception) -> int:
    """The settings' or the service's error in one line and its exit status; anything
    else is a crash. Imported here: `inboxdesk --version` needs neither."""
    from inboxdesk.client.errors import InboxdeskError
    from inboxdesk.config import ConfigError

    if isinstance(exc, ConfigError):
        print(f"inboxdesk: {exc}", file=sys.stderr)
        return 2
    if isinstance(exc, InboxdeskError):
        print(f"inboxdesk: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"  {exc.hint}", file=sys.stderr)
        return 1
    from inboxdesk.cli.crash import crashed

    return crashed(exc)


def _closed_pipe() -> int:
    """The reader of stdout went away (`| head`): stop quietly, as Unix tools do.

    stdout is pointed at /dev/null so the interpreter's final flush cannot raise again.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 141  # 128 + SIGPIPE, the status a shell reports for a killed writer
