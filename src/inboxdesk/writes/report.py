"""Journal entries as rows: for the history table, its JSON and the audit exports."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from inboxdesk.text import safe
from inboxdesk.writes.kinds import describe, kind_of
from inboxdesk.writes.store import Entry

SHORT_ID = 10
CSV_COLUMNS = [
    "id",
    "madeAt",
    "at",
    "profile",
    "host",
    "environment",
    "operation",
    "target",
    "ids",
    "what",
    "outcome",
    "queued",
    "idempotencyKey",
    "status",
    "errorId",
    "error",
    "notUpdated",
    "before",
    "after",
    "undoes",
]


def as_json(entry: Entry) -> dict[str, Any]:
    write, detail = entry.write, entry.detail
    before, after = kind_of(write).before_after(write, detail)
    return {
        "id": write.id,
        "madeAt": write.made_at.isoformat(),
        "at": entry.at.isoformat(),
        "profile": entry.where.profile,
        "host": entry.where.host,
        "environment": entry.where.environment or None,
        "operation": write.kind.value,
        "target": write.target,
        "ids": list(write.ids),
        "steps": [{"action": s.action, "ids": list(s.ids)} for s in write.steps],
        "what": describe(write),
        "outcome": entry.outcome,
        "queued": entry.queued,
        "idempotencyKey": write.key,
        "status": detail.get("status"),
        "errorId": detail.get("errorId"),
        "error": detail.get("error"),
        "notUpdated": detail.get("notUpdated", []),
        "before": before,
        "after": after,
        "count": detail.get("count"),
        "undoes": write.undoes,
    }


# What makes a spreadsheet read a cell as a formula, or split it first.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def defused(value: object) -> str:
    """A cell a spreadsheet shows as text: the safe form of the value (no control or
    escape character), with a ' before one that would start a formula."""
    text = "" if value is None else str(value)
    shown = safe(text)
    return "'" + shown if text[:1] in FORMULA_STARTS or shown[:1] in FORMULA_STARTS else shown


def to_csv(entries: Iterable[Entry]) -> str:
    import json

    out = io.StringIO()
    # A field holding LF is quoted (the line terminator); one holding CR cannot occur:
    # the safe form shows it as \r, which the writer alone would leave bare.
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in entries:
        row = as_json(entry)
        cells = []
        for column in CSV_COLUMNS:
            value = row[column]
            if isinstance(value, list | dict):
                value = json.dumps(value, ensure_ascii=False)
            cells.append(defused(value))
        writer.writerow(cells)
    return out.getvalue()
