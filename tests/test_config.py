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
        ("[profiles.a]\ntimeout = 'soon'", r"profiles\.a\.timeout=soon in .*: not a number"),
        ("[profiles.a]\ncolour = 'red'", "unknown setting profiles.a.colour"),
        ("default_profile = 'b'\n[profiles.a]\n", "default_profile 'b' names no profile"),
        ("[profiles.a\n", "not valid TOML"),
        ("[app]\nkeymap = 3", "app.keymap"),
        ("[profiles.'a b']\n", "Profile name 'a b' is not allowed"),
        ("[profiles.'']\n", "Profile name '' is not allowed"),
        ("[app]\nauto_refresh = -1", "app.auto_refresh=-1 in .*: must be 0 or more"),
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
    with pytest.raises(ConfigError, match="INBOXDESK_TIMEOUT=-1: must be more than 0"):
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

    from inboxdesk.config import Settings
    from inboxdesk.config.connect import client_for

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


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("INBOXDESK_AUTO_REFRESH", "soon", "INBOXDESK_AUTO_REFRESH=soon: not a number."),
        ("INBOXDESK_TIMEOUT", "nan", "INBOXDESK_TIMEOUT=nan: not a finite number."),
        ("INBOXDESK_TIMEOUT", "0", "INBOXDESK_TIMEOUT=0: must be more than 0."),
        ("INBOXDESK_REGION", "mars", "INBOXDESK_REGION=mars: must be one of us, eu, local"),
        ("INBOXDESK_BASE_URL", "api.novu.co", "INBOXDESK_BASE_URL=api.novu.co: must start"),
        ("INBOXDESK_PROFILE", "a b", "Profile name 'a b' is not allowed"),
        ("NOVU_SECRET_KEY", KEY + " ", "The API key from NOVU_SECRET_KEY contains white"),
    ],
)
def test_every_variable_is_validated_in_one_line_naming_it(
    tmp_path: Path, name: str, value: str, message: str
) -> None:
    config = ConfigFile.load(tmp_path / "none.toml")
    with pytest.raises(ConfigError) as failure:
        resolve({}, {name: value}, config)
    assert str(failure.value).startswith(message)
    assert "\n" not in str(failure.value) and KEY not in str(failure.value)


def test_a_bad_flag_is_named_as_typed(tmp_path: Path) -> None:
    config = ConfigFile.load(tmp_path / "none.toml")
    with pytest.raises(ConfigError, match=r"^--timeout=-3\.0: must be more than 0\.$"):
        resolve({"timeout": -3.0}, {}, config)


def test_sources_name_where_each_value_came_from(tmp_path: Path) -> None:
    config = config_at(tmp_path, PROFILES)
    env = {"INBOXDESK_AUTO_REFRESH": "5", "INBOXDESK_TIMEOUT": "9"}
    settings = resolve({"subscriber": "grace"}, env, config)
    assert settings.auto_refresh == 5 and settings.timeout == 9
    sources = settings.sources
    assert sources["subscriber"] == "flag"
    assert sources["timeout"] == "env INBOXDESK_TIMEOUT"
    assert sources["auto_refresh"] == "env INBOXDESK_AUTO_REFRESH"
    assert sources["api_key"] == "profile work"
    assert sources["base_url"] == "profile work (region eu)"
    assert sources["theme"].startswith("config [app]")
    assert sources["proxy"] == "default" and sources["profile"].startswith("default_profile")


def test_set_checks_values_with_the_same_model(tmp_path: Path) -> None:
    config = config_at(tmp_path, PROFILES)
    config.set_value(None, "timeout", "3")
    assert config.profiles()["work"]["timeout"] == 3.0, "stored as the model reads it"
    context = {"themes": {"nord", "dracula"}, "bindings": {"inbox.mark_read"}}
    with pytest.raises(ConfigError, match=r"app.theme=nosuchtheme: no such theme; known: drac"):
        config.set_value(None, "app.theme", "nosuchtheme", **context)
    with pytest.raises(ConfigError, match=r"no binding id inbox.nosuch, mark_read; known: inbox"):
        config.set_value(None, "app.keymap.inbox.nosuch", "x", **context)
    config.unset_value(None, "app.keymap.mark_read")
    with pytest.raises(ConfigError, match=r"no binding id inbox.nosuch; known: inbox.mark_read"):
        config.set_value(None, "app.keymap.inbox.nosuch", "x", **context)
    config.set_value(None, "app.theme", "dracula", **context)
    config.set_value(None, "app.keymap.inbox.mark_read", "x", **context)
    with pytest.raises(ConfigError, match=r"^profiles\.work\.region=mars: must be one of"):
        config.set_value(None, "region", "mars")
    with pytest.raises(ConfigError, match="Unknown setting colour"):
        config.set_value(None, "colour", "red")
    assert config.data["app"] == {
        "theme": "dracula",
        "keymap": {"inbox.mark_read": "x"},
    }
    assert config.profiles()["work"]["region"] == "eu", "a refused value changes nothing"


def test_unset_and_remove_profile(tmp_path: Path) -> None:
    config = config_at(tmp_path, PROFILES)
    assert config.unset_value(None, "subscriber") and "subscriber" not in config.profiles()["work"]
    assert not config.unset_value(None, "subscriber")
    assert config.unset_value(None, "app.theme") and "theme" not in config.data["app"]
    assert config.unset_value(None, "app.keymap.mark_read")
    config.remove_profile("work")
    assert list(config.profiles()) == ["self"] and config.data["default_profile"] == "self"
    with pytest.raises(ConfigError, match="No profile 'work'"):
        config.remove_profile("work")
    config.save()
    assert ConfigFile.load(config.path).profiles().keys() == {"self"}


def test_odd_profile_names_are_refused(tmp_path: Path) -> None:
    config = ConfigFile.load(tmp_path / "config.toml")
    for name in ("", " ", "a.b", "-x", "work\n", "x" * 65):
        with pytest.raises(ConfigError, match="is not allowed"):
            config.add_profile(name, {})
    assert config.profiles() == {}


def test_written_through_a_symlink_to_its_target(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "inboxdesk.toml"
    real.parent.mkdir()
    real.write_text("")
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    config = ConfigFile.load(link)
    config.add_profile("local", {"region": "local", "api_key": KEY})
    config.save()
    assert link.is_symlink() and link.resolve() == real
    assert "local" in ConfigFile.load(real).profiles()
    assert stat.S_IMODE(real.stat().st_mode) == 0o600


def test_an_unwritable_config_gets_one_line(tmp_path: Path) -> None:
    # A file where the directory should be: refused even for root, unlike a chmod.
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    config = ConfigFile.load(blocker / "config.toml")
    config.add_profile("local", {"region": "local"})
    with pytest.raises(ConfigError, match=r"Cannot write .*config.toml") as failure:
        config.save()
    assert "\n" not in str(failure.value)


def test_provenance_is_data_and_a_region_beats_only_a_lower_base_url(tmp_path: Path) -> None:
    from inboxdesk.config import Origin, Source

    config = config_at(tmp_path, PROFILES)
    settings = resolve({}, {"INBOXDESK_TIMEOUT": "9"}, config)
    assert settings.provenance["timeout"] == Source(Origin.ENV, "INBOXDESK_TIMEOUT")
    assert settings.provenance["base_url"] == Source(
        Origin.PROFILE, "work", config.path, region="eu"
    )
    assert settings.provenance["profile"] == Source(Origin.DEFAULT_PROFILE, path=config.path)
    # A region from the environment beats the profile's base_url; a flag's base_url beats it.
    settings = resolve({"profile": "self"}, {"INBOXDESK_REGION": "us"}, config)
    assert settings.base_url == "https://api.novu.co"
    assert str(settings.provenance["base_url"]) == "env INBOXDESK_REGION (region us)"
    settings = resolve({"base_url": "https://x.example"}, {"INBOXDESK_REGION": "us"}, config)
    assert settings.base_url == "https://x.example" and settings.sources["base_url"] == "flag"
    # In one source, base_url wins over region.
    env = {"INBOXDESK_REGION": "us", "INBOXDESK_BASE_URL": "https://y.example"}
    assert resolve({}, env, config).base_url == "https://y.example"


def test_variables_match_in_any_case_and_an_empty_one_is_unset(tmp_path: Path) -> None:
    config = config_at(tmp_path, PROFILES)
    env = {
        "inboxdesk_timeout": "7",
        "Novu_Secret_Key": "env-key-0123456789",
        "INBOXDESK_SUBSCRIBER": "",
    }
    settings = resolve({}, env, config)
    assert settings.timeout == 7 and settings.api_key == "env-key-0123456789"
    assert settings.sources["timeout"] == "env INBOXDESK_TIMEOUT"
    # The empty variable gives nothing: the profile's subscriber stands.
    assert settings.subscriber == "ada" and settings.sources["subscriber"] == "profile work"


def test_a_file_with_only_an_app_table_gives_its_values(tmp_path: Path) -> None:
    config = config_at(tmp_path, "[app]\ntheme = 'nord'\n")
    settings = resolve({}, {}, config)
    assert settings.theme == "nord" and settings.sources["theme"].startswith("config [app]")
    assert settings.profile is None and settings.sources["base_url"] == "default"


def test_settings_built_directly_read_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from inboxdesk.config import Settings

    monkeypatch.setenv("INBOXDESK_TIMEOUT", "3")
    monkeypatch.setenv("NOVU_SECRET_KEY", KEY)
    settings = Settings(base_url="http://127.0.0.1:9")
    assert settings.timeout == 10.0 and settings.api_key is None
    assert set(settings.sources.values()) == {"default"}


def test_a_bad_value_in_a_profile_is_named_by_its_place(tmp_path: Path) -> None:
    # Written by hand past `config set`, so only resolving sees it.
    config = ConfigFile(tmp_path / "config.toml", {"profiles": {"w": {"deadline": 0}}})
    with pytest.raises(ConfigError, match=r"^profiles\.w\.deadline=0: must be more than 0\.$"):
        resolve({"profile": "w"}, {}, config)
    config = ConfigFile(tmp_path / "config.toml", {"app": {"history_days": 0}})
    with pytest.raises(ConfigError, match=r"^app\.history_days=0: must be 1 or more\.$"):
        resolve({}, {}, config)


def test_with_one_key_given_alone_a_switch_says_to_unset_it(tmp_path: Path) -> None:
    """The app's ctrl+e with NOVU_SECRET_KEY set: adding a key to the profile would change
    nothing while the variable replaces the profile's keys."""
    from inboxdesk.config.keys import Keyring

    config = ConfigFile(tmp_path / "config.toml", {})
    alone = resolve({}, {"NOVU_SECRET_KEY": "k" * 32}, config)
    said = Keyring(alone).no_other("Development")
    assert "NOVU_SECRET_KEY holds one key, Development's" in said
    assert "unset NOVU_SECRET_KEY" in said
    profile = ConfigFile(tmp_path / "p.toml", {"profiles": {"work": {"api_key": "w" * 32}}})
    held = resolve({"profile": "work"}, {}, profile)
    assert Keyring(held).no_other("Staging") == (
        "Only Staging's key is held; `inboxdesk config add-key work` adds another."
    )
