"""One service per database: an exclusive lock on `<db>.lock` while a service runs.

Two services on one file each believe they own its pending idempotency rows, so one
key could run twice (issue 9). The lock is filelock's (flock on Unix): it belongs to an
open file, so a second service is refused even inside the same process, and it goes
when its holder exits. The holder writes its pid in the file, which a refusal names.
A clean release removes the file while still holding it, and only while it is the
holder's own: a service that locked it meanwhile finds it unlinked and tries again
(filelock drops a lock on a removed file).
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

from filelock import FileLock, Timeout


class DatabaseInUse(RuntimeError):
    """Another running service holds the database."""


class DatabaseLock:
    def __init__(self, db_path: Path | str) -> None:
        # The real path: a symlink to a database in use must find the same lock.
        path = str(db_path)
        self.db_path = path if path == ":memory:" else os.path.realpath(path)
        # (device, inode) of the file this lock holds, while it holds one.
        self._held: tuple[int, int] | None = None
        self._lock: FileLock | None = None

    @property
    def lock_path(self) -> str:
        return f"{self.db_path}.lock"

    def acquire(self) -> DatabaseLock:
        if self.db_path == ":memory:" or self._held is not None:
            return self
        lock = FileLock(self.lock_path, timeout=0, on_acquired=self._mark)
        try:
            lock.acquire()
        except Timeout:
            holder = self._holder()
            by = f" (process {holder})" if holder else ""
            raise DatabaseInUse(
                f"{self.db_path} is in use by another inboxdesk service{by}; "
                "stop that one or choose another --db"
            ) from None
        self._lock = lock
        return self

    def _mark(self, fd: int) -> None:
        """Write the holder's pid in the file it now holds, and remember which file."""
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        held = os.fstat(fd)
        self._held = held.st_dev, held.st_ino

    def _holder(self) -> str:
        """The holder's pid, as it wrote it; "" when unreadable."""
        try:
            text = Path(self.lock_path).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return ""
        return text if text.isdigit() else ""

    def release(self) -> None:
        if self._lock is None:
            return
        try:
            here = os.stat(self.lock_path)
            if (here.st_dev, here.st_ino) == self._held:
                os.unlink(self.lock_path)  # still locked: see the module's note
        except FileNotFoundError:
            pass
        self._lock.release(force=True)
        self._lock = self._held = None

    def __enter__(self) -> DatabaseLock:
        return self.acquire()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
