"""A client built from resolved settings: the one place flags and profiles meet httpx.

It lives with the settings, not in the client, so that the client knows nothing of them."""

from __future__ import annotations

import ssl
from pathlib import Path

import httpx

from inboxdesk.client.api import InboxClient
from inboxdesk.client.limits import Limits
from inboxdesk.client.retry import RetryPolicy
from inboxdesk.client.transport import ClientOptions
from inboxdesk.config.keys import HeldKey, Keyring
from inboxdesk.config.settings import Settings
from inboxdesk.config.values import ConfigError


def client_for(
    settings: Settings,
    retry: RetryPolicy | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    api_key: str | None = None,
) -> InboxClient:
    """An InboxClient for these settings, with `api_key`, else the key of the environment
    the settings act in; raises ConfigError when no key is held for it."""
    for label, path in (
        ("CA bundle", settings.ca_bundle),
        ("client certificate", settings.client_cert),
        ("client key", settings.client_key),
    ):
        if path and not Path(path).is_file():
            raise ConfigError(
                f"The {label} {path} is not a readable file; fix the path "
                "(--ca-bundle, --client-cert, --client-key or the profile)."
            )
    cert: str | tuple[str, str] | None = settings.client_cert
    if settings.client_cert and settings.client_key:
        cert = (settings.client_cert, settings.client_key)
    options = ClientOptions(
        timeout=settings.timeout,
        verify=settings.ca_bundle or True,
        cert=cert,
        proxy=settings.proxy,
        retry=retry or RetryPolicy(deadline=max(30.0, settings.timeout * 3)),
        limits=limits_for(settings),
    )
    key = api_key or Keyring(settings).current().api_key
    try:
        return InboxClient(settings.base_url, key, options, transport)
    except (ssl.SSLError, OSError) as exc:
        raise ConfigError(
            f"Cannot use the TLS files configured ({exc.__class__.__name__}: {exc}); check "
            "that the CA bundle and client certificate are PEM files."
        ) from None


LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


def plain_http_warning(settings: Settings) -> str | None:
    """What to say before a key goes over plain HTTP beyond this machine, or None."""
    from urllib.parse import urlsplit

    parts = urlsplit(settings.base_url)
    host = (parts.hostname or "").lower()
    if parts.scheme != "http" or host in LOOPBACK_HOSTS or host.startswith("127."):
        return None
    return (
        f"The API key goes to {host} over plain http://, readable by anyone on the way; "
        "use https:// for any service beyond this machine."
    )


def limits_for(settings: Settings) -> Limits:
    """The client's limits, as plain values, from the settings that declare them."""
    return Limits(
        max_body_bytes=max(1, round(settings.max_body_mb * 1_000_000)),
        deadline=settings.deadline,
        max_json_depth=settings.max_json_depth,
        max_int_digits=settings.max_int_digits,
        max_pages=settings.max_pages,
        scan_pages=settings.scan_pages,
    )


class Clients:
    """One client per key held, each made when first used and all closed together: a
    request goes with the key of the environment it acts in."""

    def __init__(
        self,
        settings: Settings,
        keyring: Keyring | None = None,
        retry: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.settings = settings
        self.keyring = keyring or Keyring(settings)
        self._retry = retry
        self._transport = transport
        self._made: dict[str, InboxClient] = {}

    def of(self, held: HeldKey) -> InboxClient:
        """The client that sends with `held`'s key."""
        client = self._made.get(held.api_key)
        if client is None:
            client = client_for(self.settings, self._retry, self._transport, held.api_key)
            self._made[held.api_key] = client
        return client

    def adopt(self, held: HeldKey, client: InboxClient) -> None:
        """Use `client` (made elsewhere, with `held`'s key) for `held`."""
        self._made[held.api_key] = client

    async def aclose(self) -> None:
        for client in self._made.values():
            await client.aclose()
        self._made.clear()

    async def __aenter__(self) -> Clients:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
