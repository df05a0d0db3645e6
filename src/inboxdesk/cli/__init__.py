"""The `inboxdesk` command line: the service, the app, and scriptable API calls."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from inboxdesk import __version__
from inboxdesk.cli import api_commands, app_commands, config_commands, serve
from inboxdesk.client.errors import InboxdeskError
from inboxdesk.config import ConfigError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="inboxdesk",
        description="Inbox and integrations of a notification service, in the terminal.",
    )
    parser.add_argument("--version", action="version", version=f"inboxdesk {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    serve.add_parser(commands)
    app_commands.add_parsers(commands)
    api_commands.add_parsers(commands)
    config_commands.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if words and words[0].startswith("-") and words[0] not in {"-h", "--help", "--version"}:
        # `inboxdesk --profile eu` means the app, as bare `inboxdesk` does.
        words.insert(0, "tui")
    args = parser.parse_args(words)
    if args.command is None:
        # Bare `inboxdesk` opens the app, as `inboxdesk tui` does.
        args = parser.parse_args(["tui"])
    try:
        code: int = args.run(args)
    except ConfigError as exc:
        print(f"inboxdesk: {exc}", file=sys.stderr)
        return 2
    except InboxdeskError as exc:
        print(f"inboxdesk: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"  {exc.hint}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _closed_pipe()
    return code


def _closed_pipe() -> int:
    """The reader of stdout went away (`| head`): stop quietly, as Unix tools do.

    stdout is pointed at /dev/null so the interpreter's final flush cannot raise again.
    """
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 141  # 128 + SIGPIPE, the status a shell reports for a killed writer
