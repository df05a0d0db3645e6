"""Seeded draws shared by the demo's generators: ids, times and filters."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any


def rng_for(seed: str) -> random.Random:
    return random.Random(seed)


def between(rng: random.Random, start: datetime, end: datetime) -> datetime:
    """A time after `start` and not after `end`: the data never dates itself in the future."""
    return start + (end - start) * rng.random() if end > start else start


def hex_id(rng: random.Random, at: datetime) -> str:
    return f"{int(at.timestamp()) & 0xFFFFFFFF:08x}{rng.getrandbits(64):016x}"


def filters(rng: random.Random) -> list[dict[str, Any]]:
    return [
        {
            "isNegated": rng.random() < 0.2,
            "type": "GROUP",
            "value": rng.choice(["AND", "OR"]),
            "children": [
                {"field": "locale", "value": "de-AT", "operator": "EQUAL", "on": "subscriber"},
                {"field": "plan", "value": "enterprise,team", "operator": "IN", "on": "payload"},
            ],
        }
    ]
