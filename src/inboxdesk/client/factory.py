"""A client built from resolved settings: the one place flags and profiles meet httpx."""

from __future__ import annotations

import httpx

from inboxdesk.client.api import ClientOptions, InboxClient
from inboxdesk.client.retry import RetryPolicy
from inboxdesk.config import Settings


def client_for(
    settings: Settings,
    retry: RetryPolicy | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> InboxClient:
    """An InboxClient for these settings; raises ConfigError when no key is set."""
    cert: str | tuple[str, str] | None = settings.client_cert
    if settings.client_cert and settings.client_key:
        cert = (settings.client_cert, settings.client_key)
    options = ClientOptions(
        timeout=settings.timeout,
        verify=settings.ca_bundle or True,
        cert=cert,
        proxy=settings.proxy,
        retry=retry or RetryPolicy(deadline=max(30.0, settings.timeout * 3)),
    )
    return InboxClient(settings.base_url, settings.require_key(), options, transport)
