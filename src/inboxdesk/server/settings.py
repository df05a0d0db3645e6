"""What a local service instance is configured with."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from inboxdesk.server.limits import MAX_BODY_BYTES
from inboxdesk.server.ratelimit import RateLimit


@dataclass(frozen=True)
class ServerSettings:
    db_path: Path | str
    rate_limit: RateLimit | None = None
    max_body_bytes: int = MAX_BODY_BYTES
    # Seconds each write operation takes on purpose: lets clients be tested against
    # a slow service and a request still in flight.
    operation_delay: float = 0.0
    # Send integrations' credentials, as older deployments did; production omits them
    # for API-key callers.
    send_credentials: bool = False
    # List every environment's integrations to an API key and let it switch any of
    # them, as deployments older than May 2026 (and older self-hosted ones) do; off,
    # a key sees and switches its own environment's only, as production does now.
    org_wide_integrations: bool = False
    # Send every environment's `apiKeys` on GET /v1/environments, as production does for
    # organizations with its per-organization flag; off, the caller's own only.
    every_environment_key: bool = False
    # Serve GET /v2/subscribers[/{id}[/notifications/count]]; off, the service answers
    # 404 there as an older deployment does, and clients fall back to v1.
    v2_subscribers: bool = True
    # Serve the v2 inbox (GET /v2/subscribers/{id}/notifications and its actions); off,
    # the service answers 404 there as an older deployment does.
    v2_inbox: bool = True
    # Serve the hidden, deprecated GET /v1/subscribers[/{id}]; off, as a deployment that
    # dropped them answers (404), so that clients are tested without them.
    v1_subscribers: bool = True
    # Hours of activity a plan keeps: an activity query reaching further back answers
    # 402, as production's cloud plans do; None keeps everything (self-hosted).
    activity_retention_hours: float | None = None
    # Keep and apply preferences per context (`?contextKeys=tenant:acme`), as production
    # does for organizations with its flag on; off (production's default), a context is
    # ignored: reads and writes touch the no-context records, and the worker uses them.
    context_preferences: bool = False
