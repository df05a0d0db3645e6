"""Where inboxdesk keeps its files, from platformdirs (overridable for tests)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "inboxdesk"


def config_dir() -> Path:
    override = os.environ.get("INBOXDESK_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP))


def data_dir() -> Path:
    override = os.environ.get("INBOXDESK_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir(APP))


def default_db_path() -> Path:
    return data_dir() / "local.db"


def writes_path() -> Path:
    """The outbox's queue and the journal of writes (inboxdesk.writes)."""
    return data_dir() / "writes.db"


def log_dir() -> Path:
    override = os.environ.get("INBOXDESK_LOG_DIR")
    return Path(override) if override else Path(platformdirs.user_log_dir(APP))
