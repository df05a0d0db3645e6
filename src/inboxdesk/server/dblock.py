"""One service per database: an exclusive lock on `<db>.lock` while a service runs.

Two services on one file each believe they own its pending idempotency rows, so one
key could run twice (issue 9). flock locks belong to an open file, so a second service
is refused even inside the same process, and the lock goes when its holder exits.
A clean release removes the file too (only while it is still the holder's own).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType
from typing import IO


class DatabaseInUse(RuntimeError):
    """Another running service holds the database."""


class DatabaseLock:
    def __init__(self, db_path: Path | str) -> None:
        # The real path: a symlink to a database in use must find the same lock.
        path = str(db_path)
        self.db_path = path if path == ":memory:" else os.path.realpath(path)
        self._file: IO[str] | None = None

    def acquire(self) -> DatabaseLock:
        if self.db_path == ":memory:" or self._file is not None:
            return self
        while True:
            file = open(self.lock_path, "a+", encoding="utf-8")  # noqa: SIM115
            try:
                fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                file.close()
                raise DatabaseInUse(
                    f"{self.db_path} is in use by another inboxdesk service; "
                    "stop that one or choose another --db"
                ) from None
            if self._is_at_path(file):
                break
            # Its holder removed it as we opened it (release): lock the file now there.
            file.close()
        # The holder's pid, for whoever wonders which process that is.
        file.truncate(0)
        file.write(f"{os.getpid()}\n")
        file.flush()
        self._file = file
        return self

    @property
    def lock_path(self) -> str:
        return f"{self.db_path}.lock"

    def _is_at_path(self, file: IO[str]) -> bool:
        """Whether the open file is still the one at the lock's path."""
        try:
            here = os.stat(self.lock_path)
        except FileNotFoundError:
            return False
        mine = os.fstat(file.fileno())
        return (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino)

    def release(self) -> None:
        if self._file is not None:
            # Removed while still locked, and only if the file there is ours: a service
            # that opened it meanwhile finds it gone once it gets the lock, and retries.
            if self._is_at_path(self._file):
                os.unlink(self.lock_path)
            fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
            self._file = None

    def __enter__(self) -> DatabaseLock:
        return self.acquire()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
