"""The kinds of values a setting takes, shared by every model of the config package,
so that a value is checked the same way from a flag, a variable, the file or `config set`."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field

from inboxdesk.models import Region

REGION_URLS: dict[Region, str] = {
    Region.US: "https://api.novu.co",
    Region.EU: "https://eu.api.novu.co",
    Region.LOCAL: "http://127.0.0.1:3000",
}
REGIONS = ", ".join(r.value for r in Region)
ENV_PREFIX = "INBOXDESK_"
# The key's variable is the one the service's own SDKs read.
KEY_ENV = "NOVU_SECRET_KEY"
PROFILE_ENV = "INBOXDESK_PROFILE"
CONFIG_ENV = "INBOXDESK_CONFIG"
# Profile names are bare TOML keys: nothing to quote, nothing that looks like a flag.
PROFILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
# The command that works from nothing, named wherever a key is missing.
FIRST_RUN = (
    f"Save one with `inboxdesk config init` (asks for the region and the key), or set {KEY_ENV}."
)


class ConfigError(Exception):
    """A config problem, said in one line that names the fix."""


def env_name(field: str) -> str:
    """The environment variable a setting is read from."""
    return KEY_ENV if field == "api_key" else f"{ENV_PREFIX}{field.upper()}"


def key_problem(key: str) -> str | None:
    """Why `key` cannot go in an Authorization header, or None if it can.

    A key with whitespace (a pasted trailing newline) or non-ASCII characters would be
    refused by the HTTP layer with a message quoting the whole header, key included.
    """
    if not key:
        return "is empty"
    if any(c.isspace() for c in key):
        return "contains whitespace (a space, tab or newline); set it again without it"
    if not key.isascii() or not key.isprintable():
        return "contains non-ASCII or control characters; copy it again from the dashboard"
    return None


def check_api_key(key: str, source: str) -> str:
    """`key` if it can go in an Authorization header; else a one-line error without it."""
    problem = key_problem(key)
    if problem:
        raise ConfigError(f"The API key from {source} {problem}.")
    return key


def check_profile_name(name: str) -> str:
    if not PROFILE_NAME.fullmatch(name):
        raise ConfigError(
            f"Profile name {name[:40]!r} is not allowed: use 1 to 64 letters, digits, "
            "- or _, starting with a letter or digit."
        )
    return name


def shown_value(value: object) -> str:
    """A value as an error quotes it: unquoted if text, and at most 40 characters."""
    text = repr(value)[1:-1] if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def region_url(region: object) -> str | None:
    """The base URL of a region's name, or None when it names no region."""
    try:
        return REGION_URLS[Region(str(region))]
    except ValueError:
        return None


def _valid_key(key: str) -> str:
    problem = key_problem(key)
    if problem:
        raise ValueError(problem)
    return key


# Never part of a URL a service is reached at: each would end or split it in a header,
# a log line or a shell command, or hide what it is.
_NOT_IN_URLS = frozenset("\"'<>\\`^{}|") | {chr(c) for c in (*range(0x21), *range(0x7F, 0xA1))}


def _http_url(url: str) -> str:
    from urllib.parse import urlsplit

    if not url.startswith(("http://", "https://")):
        raise ValueError("must start with http:// or https://")
    odd = sorted({c for c in url if c in _NOT_IN_URLS or c in "\u2028\u2029\ufeff"})
    if odd:
        shown = ", ".join(repr(c) for c in odd[:5])
        raise ValueError(f"holds {shown}, which no service URL has")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError as exc:
        raise ValueError(f"is not a URL ({exc})") from None
    if not parts.hostname:
        raise ValueError("names no host")
    return url.rstrip("/")


def _profile_name(name: str) -> str:
    try:
        return check_profile_name(name)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None


ApiKey = Annotated[str, AfterValidator(_valid_key)]
BaseUrl = Annotated[str, AfterValidator(_http_url)]
Seconds = Annotated[float, Field(gt=0, allow_inf_nan=False)]
Interval = Annotated[float, Field(ge=0, allow_inf_nan=False)]
ProfileName = Annotated[str, AfterValidator(_profile_name)]
Megabytes = Annotated[float, Field(gt=0, allow_inf_nan=False)]
# The JSON parser's own ceilings (client/limits.py): a limit may be stricter, not looser.
JsonDepth = Annotated[int, Field(ge=1, le=200)]
IntDigits = Annotated[int, Field(ge=1, le=4300)]
Pages = Annotated[int, Field(ge=1)]
HistoryDays = Annotated[int, Field(ge=1, le=36_500)]
HistoryEntries = Annotated[int, Field(ge=0)]
