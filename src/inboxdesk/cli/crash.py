"""A crash is never silent: its traceback goes to a log file, and one line names it."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import traceback
from datetime import UTC, datetime
from pathlib import Path

from inboxdesk.paths import log_dir

# Exit status of a crash (an exception nothing expected): sysexits' EX_SOFTWARE.
CRASHED = 70


def save_traceback(text: str) -> Path | None:
    """Write `text` to a new file under the user log directory (mode 0600: a traceback
    may show local values); None when that is impossible."""
    path = log_dir() / datetime.now(UTC).strftime("crash-%Y%m%d-%H%M%S-%f.log")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError:
        return None
    return path


# Exit status when the terminal went away (closed window, hung-up session): SIGHUP's.
HUNG_UP = 129


def terminal_gone(exc: BaseException) -> bool:
    """An input/output error on the terminal: its window was closed under the run. Not
    a bug: nothing is left to tell, and no crash log is written."""
    return isinstance(exc, OSError) and exc.errno in (errno.EIO, errno.ENXIO)


def report(text: str, what: str) -> int:
    """Save a traceback and say, in one line on stderr, what crashed and where it is."""
    where = save_traceback(text)
    detail = f"the traceback is in {where}" if where else "the traceback could not be saved"
    with contextlib.suppress(OSError):  # no terminal left to say it on: the log holds it
        print(f"inboxdesk: {what} crashed; {detail}. Please report it.", file=sys.stderr)
    return CRASHED


def crashed(exc: BaseException) -> int:
    if terminal_gone(exc):
        return HUNG_UP
    return report("".join(traceback.format_exception(exc)), f"the command ({type(exc).__name__})")
