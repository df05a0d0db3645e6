"""Connection profiles and app settings: a TOML file, the environment, and flags.

`Settings` declares every setting once (models.py), with its kind, its default and its
environment variable (`INBOXDESK_<NAME>`; the key is `NOVU_SECRET_KEY`, as the service's
own SDKs read it). `resolve` layers one run's sources with pydantic-settings and keeps
where each value came from as data (provenance.py). connect.py builds a client from the
settings: the client itself knows nothing of them.
"""

from __future__ import annotations

from inboxdesk.config.file import ConfigFile, config_path
from inboxdesk.config.models import (
    APP_FIELDS,
    CONNECTION_FIELDS,
    PROFILE_FIELDS,
    AppSettings,
    ConfigData,
    Connection,
    Profile,
)
from inboxdesk.config.provenance import Origin, Source
from inboxdesk.config.settings import SHOWN, Settings, resolve
from inboxdesk.config.values import (
    CONFIG_ENV,
    FIRST_RUN,
    KEY_ENV,
    PROFILE_ENV,
    REGION_URLS,
    REGIONS,
    ConfigError,
    check_api_key,
    check_profile_name,
    env_name,
    key_problem,
)

__all__ = [
    "APP_FIELDS",
    "CONFIG_ENV",
    "CONNECTION_FIELDS",
    "FIRST_RUN",
    "KEY_ENV",
    "PROFILE_ENV",
    "PROFILE_FIELDS",
    "REGIONS",
    "REGION_URLS",
    "SHOWN",
    "AppSettings",
    "ConfigData",
    "ConfigError",
    "ConfigFile",
    "Connection",
    "Origin",
    "Profile",
    "Settings",
    "Source",
    "check_api_key",
    "check_profile_name",
    "config_path",
    "env_name",
    "key_problem",
    "resolve",
]
