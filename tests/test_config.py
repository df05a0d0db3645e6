"""Profiles, precedence, and the config file's safety."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from inboxdesk.config import ConfigError, ConfigFile, resolve

KEY = "profile-key-0123456789abcdef"


def config_at(tmp_path: Path, text: str, mode: int = 0o600) -> ConfigFile:
    path = tmp_path / "config.toml"
    path.write_text(text)
    os.chmod(path, mode)
    return ConfigFile.load(path)


PROFILES = f"""
default_profile = "work"
[profiles.work]
region = "eu"
api_key = "{KEY}"
subscriber = "ada"
[profiles.self]
base_url = "https://novu.internal.example"
timeout = 4
[app]
theme = "nord"
[app.keymap]
mark_read = "x"
"""


def test_precedence_flags_env_profile_defaults(tmp_path: Path) -> None:
    config = config_at(tmp_path, PROFILES)
    settings = resolve({}, {}, config)
    assert (settings.profile, settings.base_url, settings.api_key) == (
        "work",
        "https://eu.api.novu.co",
        KEY,
    )
    assert settings.subscriber == "ada" and settings.timeout == 10.0
    assert settings.theme == "nord" and settings.keymap == {"mark_read": "x"}

    env = {"NOVU_SECRET_KEY": "env-key-0123456789", "INBOXDESK_SUBSCRIBER": "grace"}
    settings = resolve({}, env, config)
    assert settings.api_key == "env-key-0123456789" and settings.subscriber == "grace"
    assert settings.sources["api_key"] == "env NOVU_SECRET_KEY"

    settings = resolve({"api_key": "flag-key-0123456789", "region": "us"}, env, config)
    assert settings.api_key == "flag-key-0123456789" and settings.base_url == "https://api.novu.co"

    settings = resolve({"profile": "self"}, {}, config)
    assert settings.base_url == "https://novu.internal.example" and settings.timeout == 4
    assert settings.api_key is None

    settings = resolve({}, {"INBOXDESK_PROFILE": "self", "INBOXDESK_REGION": "local"}, config)
    assert settings.base_url == "http://127.0.0.1:3000"


def test_defaults_without_a_file(tmp_path: Path) -> None:
    settings = resolve({}, {}, ConfigFile.load(tmp_path / "none.toml"))
    assert settings.profile is None and settings.base_url == "http://127.0.0.1:3000"
    with pytest.raises(ConfigError, match="No API key"):
        settings.require_key()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("profiles = 3", "must be a table"),
        ("[profiles.a]\nregion = 'mars'", "us, eu, local"),
        ("[profiles.a]\ntimeout = 'soon'", "must be a number"),
        ("[profiles.a]\ncolour = 'red'", "unknown setting profiles.a.colour"),
        ("default_profile = 'b'\n[profiles.a]\n", "default_profile 'b' names no profile"),
        ("[profiles.a\n", "not valid TOML"),
        ("[app]\nkeymap = 3", "app.keymap"),
    ],
)
def test_malformed_files_get_a_one_line_fix(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as failure:
        config_at(tmp_path, text)
    assert "\n" not in str(failure.value)


def test_bad_values_from_flags_or_env(tmp_path: Path) -> None:
    config = config_at(tmp_path, PROFILES)
    with pytest.raises(ConfigError, match="Unknown profile 'x'"):
        resolve({"profile": "x"}, {}, config)
    with pytest.raises(ConfigError, match="http:// or https://"):
        resolve({"base_url": "api.novu.co"}, {}, config)
    with pytest.raises(ConfigError, match="timeout"):
        resolve({}, {"INBOXDESK_TIMEOUT": "-1"}, config)


def test_saved_file_is_0600_and_keys_are_masked(tmp_path: Path) -> None:
    config = ConfigFile.load(tmp_path / "sub" / "config.toml")
    config.add_profile("local", {"region": "local", "api_key": KEY})
    config.save()
    assert stat.S_IMODE(config.path.stat().st_mode) == 0o600
    settings = resolve({}, {}, ConfigFile.load(config.path))
    assert KEY not in repr(settings)
    assert KEY not in str(settings.shown()) and settings.shown()["api_key"] == "••••cdef"


def test_readable_file_with_a_key_warns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config_at(tmp_path, PROFILES, mode=0o644)
    err = capsys.readouterr().err
    assert "readable by others" in err and "chmod 600" in err and KEY not in err


def test_client_settings_reach_the_transport(tmp_path: Path) -> None:
    import certifi

    from inboxdesk.client.factory import client_for
    from inboxdesk.config import Settings

    with pytest.raises(ConfigError, match=r"CA bundle /nope\.pem is not a readable file"):
        client_for(Settings(api_key=KEY, ca_bundle="/nope.pem"))
    with pytest.raises(ConfigError, match="client certificate"):
        client_for(Settings(api_key=KEY, client_cert=str(tmp_path / "none.pem")))
    client = client_for(Settings(api_key=KEY, timeout=3.5, proxy="http://127.0.0.1:9"))
    assert client.options.timeout == 3.5 and client.options.proxy == "http://127.0.0.1:9"
    assert client.options.verify is True
    bundled = client_for(Settings(api_key=KEY, ca_bundle=certifi.where()))
    assert bundled.options.verify == certifi.where()
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate")
    with pytest.raises(ConfigError, match="PEM files"):
        client_for(Settings(api_key=KEY, ca_bundle=str(garbage)))
