"""The one rule that says which settings are secret, and how a secret is shown.

Plain functions with no model behind them: the config and the client's repr mask keys
with them at start-up, before any model is needed.
"""

from __future__ import annotations

import re
from typing import Any

# Credential fields that are safe to show as they are; every other value is masked.
PUBLIC_CREDENTIALS: frozenset[str] = frozenset(
    {
        "user",
        "domain",
        "host",
        "port",
        "region",
        "from",
        "senderName",
        "projectName",
        "baseUrl",
        "redirectUrl",
        "ipPoolName",
        "apiKeyRequestHeader",
        "secretKeyRequestHeader",
        "idPath",
        "datePath",
        "title",
        "imageUrl",
        "state",
        "externalLink",
        "channelId",
        "phoneNumberIdentification",
        "senderId",
        "secure",
        "requireTls",
        "ignoreTls",
        "hmac",
        "authenticateByToken",
        "AppBaseUrl",
    }
)


def mask_secret(value: str) -> str:
    """Show at most the last four characters of a long secret, nothing of a short one."""
    if len(value) <= 8:
        return "••••"
    return "••••" + value[-4:]


# Names of settings that hold secrets (apiKey, signingKey, authToken, password, ...).
_SECRET_NAME = (
    r"key|secret|token|pass(?:w|$|_|-|phrase)|pwd|signing|credential|private|cert|auth|salt"
    r"|webhook|hook_?url"
)
# Values that are secrets whatever their name: provider key and token prefixes, JWTs.
_SECRET_VALUE = (
    r"^(whsec_|sk_|rk_|pk_live_|SG\.|xox[abposr]-|gh[pousr]_|github_pat_|AKIA|ASIA|"
    r"AC[0-9a-f]{32}|eyJ[\w-]+\.|key-[0-9a-f]{16}|"
    # A bearer token, a PEM private key, a URL with a password in it, and the webhook
    # URLs of chat services, whose path is the secret.
    r"bearer\s|-----BEGIN [A-Z ]*PRIVATE KEY|[a-z][a-z0-9+.-]*://[^/\s@:]*:[^/\s@]+@|"
    r"https?://hooks\.slack\.com/|https?://(?:[\w-]+\.)?discord(?:app)?\.com/api/webhooks/)"
)
# Names that match _SECRET_NAME but only say whether a secret is used, or where.
_PUBLIC_NAMES = frozenset(PUBLIC_CREDENTIALS | {"inboundWebhookEnabled"})


_SECRET_NAME_RE = re.compile(_SECRET_NAME, re.IGNORECASE)
_SECRET_VALUE_RE = re.compile(_SECRET_VALUE, re.IGNORECASE)


def is_secret(name: str, value: object) -> bool:
    """True when a setting looks secret: by its name, or by what its value looks like."""
    if isinstance(value, str) and _SECRET_VALUE_RE.match(value.strip()):
        return True
    if name in _PUBLIC_NAMES or isinstance(value, bool) or value is None:
        return False
    return _SECRET_NAME_RE.search(name) is not None


def mask_value(value: Any) -> Any:
    """Every leaf of a value masked: for credentials, where only public names show. A
    flag or a null holds no secret and stays as it is: `rejectUnauthorized: false` says
    that TLS checking is off, which masking must not hide (nor turn into a string)."""
    if isinstance(value, dict):
        return {k: mask_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [mask_value(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    return mask_secret(str(value))


def mask_secrets(value: Any, name: str = "") -> Any:
    """A JSON value with every secret-looking setting masked and the rest as it came.

    The one masking rule for settings from the wire (credentials of older deployments,
    `configurations`, unknown fields): the command line and the app both show this.
    """
    if isinstance(value, dict):
        return {k: mask_secrets(v, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [mask_secrets(v, name) for v in value]
    return mask_secret(str(value)) if is_secret(name, value) else value
