"""Checkpoints that let a deep feed page start near its offset instead of at the top.

The feed is paged by offset, as production's is, and SQLite walks an offset one index
entry at a time: page 999 of a 100,000-message inbox walked 99,900 entries for every
request, and `G`, a scroll-bar drag or a search for the end each ask for such
pages. A listing's checkpoints are the sort keys `(created_at, id)` of every STRIDE-th
row, found in one walk and kept until a write changes the listing; a page then walks at
most STRIDE entries from the checkpoint before it.

A listing is one subscriber's in-app messages under one read/seen/archived/snoozed
filter: the v1 feed's (archived and snoozed None: not filtered) and the v2 inbox's
tabs; the two with no filter list the same rows. Inserted messages change every
listing; marks, archives and snoozes (each a write of flags) change only which messages
a filtered listing holds.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

STRIDE = 1000
# Listings kept; each holds one key per STRIDE rows (100 for a 100,000-message inbox).
KEPT = 256

# Environment, subscriber pk, then read, seen, archived, snoozed (None: not filtered).
Key = tuple[str, str, bool | None, bool | None, bool | None, bool | None]
SortKey = tuple[str, str]  # (created_at, id) of a row


class FeedCheckpoints:
    """Sort keys of every STRIDE-th row per listing, valid until the next write to it."""

    def __init__(self, stride: int = STRIDE) -> None:
        # Rows between two checkpoints: a page walks fewer than this many from the one
        # before it. Fixed for the object's life: its kept checkpoints were taken at it.
        self.stride = stride
        self._lock = threading.Lock()
        self._kept: OrderedDict[Key, tuple[tuple[int, int], list[SortKey]]] = OrderedDict()
        # Moved around each write (`writing`): a listing built before it is not used after.
        self._inserts = 0
        self._marks = 0

    @contextmanager
    def writing(self, inserts: bool) -> Iterator[None]:
        """Around a write to messages (`inserts`: new messages, else flags only: read,
        seen, archived or snoozed).

        The version moves before the write and again once it has committed, so no
        listing walked or used while it runs is used after it.
        """
        self._bump(inserts)
        try:
            yield
        finally:
            self._bump(inserts)

    def _bump(self, inserts: bool) -> None:
        with self._lock:
            if inserts:
                self._inserts += 1
            else:
                self._marks += 1

    def _version(self, key: Key) -> tuple[int, int]:
        filtered = any(flag is not None for flag in key[2:])
        return (self._inserts, self._marks if filtered else 0)

    def start(
        self,
        db: sqlite3.Connection,
        key: Key,
        where: str,
        params: Sequence[Any],
        offset: int,
    ) -> tuple[str, list[Any], int]:
        """Extra condition, its parameters, and the offset left to walk after it.

        `where` and `params` select the listing's rows; its order is created_at DESC,
        id DESC. Offsets within the first `stride` rows walk from the top as before.
        """
        stride = self.stride
        if offset < stride:
            return "", [], offset
        with self._lock:
            version = self._version(key)
            kept = self._kept.get(key)
            if kept is not None and kept[0] == version:
                self._kept.move_to_end(key)
        if kept is None or kept[0] != version:
            # Built outside the lock (a walk of the whole listing); a write committed
            # meanwhile bumps the version, so these keys are not used after it.
            kept = (version, _walk(db, where, params, stride))
            with self._lock:
                self._kept[key] = kept
                while len(self._kept) > KEPT:
                    self._kept.popitem(last=False)
        marks = kept[1]
        steps = min(offset // stride, len(marks))
        if steps == 0:
            return "", [], offset
        created_at, message_id = marks[steps - 1]
        return " AND (created_at, id) <= (?, ?)", [created_at, message_id], offset - steps * stride


def _walk(db: sqlite3.Connection, where: str, params: Sequence[Any], stride: int) -> list[SortKey]:
    """The sort key of rows `stride`, 2·`stride`, … of the listing, hop by hop in its
    index."""
    marks: list[SortKey] = []
    condition, anchor = "", list[str]()
    while True:
        row = db.execute(
            f"SELECT created_at, id FROM messages WHERE {where}{condition} "
            "ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?",
            [*params, *anchor, stride],
        ).fetchone()
        if row is None:
            return marks
        marks.append((row[0], row[1]))
        condition, anchor = " AND (created_at, id) <= (?, ?)", [row[0], row[1]]
