"""The Textual app: a subscriber's inbox and the environment's integrations."""

from __future__ import annotations
