"""inboxdesk: a terminal app, client and local service for a notification service's inbox."""

from __future__ import annotations

__version__ = "0.1.0"
