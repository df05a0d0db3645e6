"""A notification being worked on: what a pass (run.py) carries and a channel's send
(channels.py) reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Chain:
    """A notification being worked on: its document, its jobs in order, its workflow."""

    notification: dict[str, Any]
    jobs: list[dict[str, Any]]
    workflow: dict[str, Any]
    positions: dict[str, int] = field(default_factory=dict)

    @property
    def environment_id(self) -> str:
        return str(self.notification["_environmentId"])
