"""A validation error as one line that names where the bad value was written."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from inboxdesk.config.models import APP_FIELDS, PROFILE_FIELDS
from inboxdesk.config.values import REGIONS, ConfigError, shown_value


def _problem(error: Any) -> str:
    kind, ctx = error["type"], error.get("ctx", {})
    if kind in ("float_parsing", "float_type", "int_parsing", "int_type"):
        return "not a number"
    if kind == "finite_number":
        return "not a finite number"
    if kind == "greater_than":
        return f"must be more than {ctx['gt']:g}"
    if kind == "greater_than_equal":
        return f"must be {ctx['ge']:g} or more"
    if kind == "less_than_equal":
        return f"must be {ctx['le']:g} or less"
    if kind == "enum":
        return f"must be one of {REGIONS} (or set base_url)"
    if kind == "string_type":
        return "must be a string (in quotes)"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "must be a table"
    if kind == "value_error":
        return str(ctx.get("error", error["msg"]))
    return str(error["msg"])


def one_line(exc: ValidationError, where: Callable[[str], str], place: str = "") -> ConfigError:
    """The first error as one line: `NAME=value: problem`, NAME from `where(location)`.

    `place` follows the value (" in PATH" for the file); a key's value is never shown.
    """
    error = exc.errors()[0]
    loc = ".".join(str(part) for part in error["loc"])
    if loc.endswith("api_key") and error["type"] == "value_error":
        return ConfigError(f"The API key from {where(loc)}{place} {_problem(error)}.")
    if error["type"] == "extra_forbidden":
        return ConfigError(f"unknown setting {loc}{place}; known: {_known(loc)}.")
    label = where(loc)
    value = error.get("input")
    if loc and value is not None and not isinstance(value, dict) and "api_key" not in loc:
        label += f"={shown_value(value)}"
    return ConfigError(f"{label}{place}: {_problem(error)}.")


def file_where(loc: str) -> str:
    """A place in the file: `profiles.work.timeout`; a key's is its profile."""
    parts = loc.split(".")
    if parts[0] == "profiles" and len(parts) > 2 and parts[-1] == "api_key":
        return f"profile {parts[1]}"
    return loc


def _known(loc: str) -> str:
    if loc.startswith("profiles."):
        return ", ".join(PROFILE_FIELDS)
    if loc.startswith("app."):
        return ", ".join(APP_FIELDS) + ", keymap"
    return "default_profile, profiles, app"
