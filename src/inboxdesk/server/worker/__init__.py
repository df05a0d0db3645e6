"""The local service's worker: one per store, carrying triggers through their steps.

It is one thread, started when work is queued (or when a store opens with work left
from before) and stopped when the store closes; between passes it sleeps on an event
that the trigger route sets (a plain thread: an event loop of its own cost a task, a
timer and a wake-up pipe on every pass, for nothing else to run). It runs on the
store's clock: `run_due()` does everything due now, and is the hook tests call after
moving that clock, so no test sleeps. What is queued lives in the database, so stopping
loses nothing: the next worker of that database picks it up.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Protocol

from inboxdesk.server.worker.run import Pass, due_entries

# The longest the task sleeps before looking at the clock again: a clock moved by hand
# (or a wall clock that jumped) is noticed within it.
LONGEST_NAP = 1.0
# Entries taken per transaction: long enough to be quick, short enough that the
# service's own writes wait little for the lock.
BATCH = 64


class QueueStore(Protocol):
    """The store as its worker uses it (the service's `Store` is one): the queue's next
    due time, the clock and setting a pass runs on, a pass's transaction, and the
    worker thread's own connection to close."""

    @property
    def clock(self) -> Callable[[], datetime]: ...

    @property
    def context_preferences(self) -> bool: ...

    def next_due(self) -> str | None: ...

    def worker_transaction(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def close_connection(self) -> None: ...


class Worker:
    """Carries a store's queued work to its end, on the store's clock."""

    def __init__(self, store: QueueStore, report_delay: timedelta = timedelta(seconds=2)) -> None:
        self.store = store
        # How long after "Message sent" a provider's report (a bounce, a delivery) comes.
        self.report_delay = report_delay
        self._run_lock = threading.Lock()
        self._state = threading.Lock()
        self._thread: threading.Thread | None = None
        # Set when work is queued or the worker must stop; cleared before each pass, so
        # work queued during a pass makes the next wait return at once.
        self._wake = threading.Event()
        self._stopping = False

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.store.clock

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def run_due(self) -> int:
        """Do everything due by the clock now, to the end; the number of queue entries
        done. Safe from any thread: one pass runs at a time."""
        done = 0
        with self._run_lock:
            while True:
                now = self.clock()
                with self.store.worker_transaction() as db:
                    entries = list(due_entries(db, now, BATCH))
                    work = Pass(db, now, self.report_delay, self.store.context_preferences)
                    db.executemany(
                        "DELETE FROM worker_queue WHERE id = ?", [(e["id"],) for e in entries]
                    )
                    for entry in entries:
                        body = json.loads(entry["body"]) if entry["body"] else {}
                        if entry["kind"] == "trigger":
                            work.trigger(entry["environment_id"], body["_organizationId"], body)
                        elif entry["kind"] == "job":
                            work.resume(str(entry["job_id"]))
                        elif entry["kind"] == "report":
                            work.report(str(entry["job_id"]), body)
                    work.flush()
                done += len(entries)
                if len(entries) < BATCH:
                    return done

    def wake(self) -> None:
        """Work was queued: start the thread if it is not running, else wake it."""
        with self._state:
            if self._stopping:
                return
            self._wake.set()
            if not self.running:
                self._thread = threading.Thread(
                    target=self._run, daemon=True, name="inboxdesk-worker"
                )
                self._thread.start()

    def start_if_queued(self) -> None:
        if self.store.next_due() is not None:
            self.wake()

    def stop(self) -> None:
        """Stop the thread and wait for it; what is queued stays for the next worker."""
        with self._state:
            self._stopping = True
            thread = self._thread
            self._wake.set()
        if thread is not None:
            thread.join(timeout=10)
        with self._state:
            self._thread = None
            self._stopping = False
            self._wake.clear()

    def _run(self) -> None:
        try:
            while not self._stopping:
                self._wake.clear()
                self.run_due()
                nap = self._nap()
                if self._stopping:
                    break
                self._wake.wait(nap)
        finally:
            self.store.close_connection()  # this thread's, not the store's close

    def _nap(self) -> float | None:
        """How long to sleep: until the next due work, at most LONGEST_NAP; None (until
        woken) when nothing is queued."""
        due = self.store.next_due()
        if due is None:
            return None
        at = datetime.fromisoformat(due.replace("Z", "+00:00"))
        return max(0.0, min(LONGEST_NAP, (at - self.clock()).total_seconds()))
