"""Identifiers: 24-character lowercase hex strings in MongoDB ObjectId form."""

from __future__ import annotations

import itertools
import os
import re
import time

OBJECT_ID = re.compile(r"^[0-9a-f]{24}$")

_counter = itertools.count(int.from_bytes(os.urandom(3), "big"))
_process = os.urandom(5).hex()


def is_object_id(value: object) -> bool:
    """True for a 24-character lowercase hex string."""
    return isinstance(value, str) and OBJECT_ID.fullmatch(value) is not None


def new_object_id(at: float | None = None) -> str:
    """A fresh id: seconds since the epoch, a per-process random part, a counter."""
    seconds = int(time.time() if at is None else at)
    return f"{seconds & 0xFFFFFFFF:08x}{_process}{next(_counter) & 0xFFFFFF:06x}"
