"""Saved views through Pilot, on real config files (decision 121): a view saved in one
run of the app reopens in the next, on the same profile, with `:NAME` (and on the
command line with `activity --view NAME`); a view of another environment opens there
with its key, or names the key that is missing and changes nothing."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

import pytest

from inboxdesk.config import ConfigFile, resolve
from inboxdesk.tui.activity.screen import ActivityScreen
from inboxdesk.tui.app import InboxdeskApp, make_app
from inboxdesk.writes import WriteStore
from tests.client.conftest import run
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.feed_fixture import feed_fixture
from tests.production_shaped import production_shaped
from tests.tui.conftest import SIZE, Notices, until
from tests.tui.test_command_line import _groups, line
from tests.tui.test_environments import BOTH, OTHER, SENTINEL, app_on, header, inbox_of
from tests.tui.test_inbox import opened

SMS_GROUPS = [
    ("4", "provider error", "21610"),
    ("2", "provider error", "21211"),
    ("1", "missing address", ""),
]


@pytest.fixture
def profile(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, make_service: ServiceFactory) -> Path:
    """A real profile: the config file where the user's own lives, under a temp HOME,
    holding the profile `real` (the default); nothing in the environment chooses."""
    service: Service = make_service(feed_fixture())  # times relative to now: the app's clock
    for name in ("INBOXDESK_CONFIG_DIR", "INBOXDESK_CONFIG", "XDG_CONFIG_HOME", "NOVU_SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name in ("INBOXDESK_BASE_URL", "INBOXDESK_PROFILE", "INBOXDESK_ENVIRONMENT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    config = ConfigFile.load()
    assert str(config.path).startswith(str(tmp_path / "home"))
    config.add_profile("real", {"base_url": service.url, "api_key": STAGING_KEY})
    config.save()
    return config.path


def started() -> InboxdeskApp:
    """The app as `inboxdesk` starts it: its settings resolved from the file anew."""
    app = make_app(resolve({}), subscriber_id="jane", writes=WriteStore(None))
    app.animation_level = "none"
    return app


async def test_a_saved_view_reopens_after_a_restart(
    profile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = started()
    async with first.run_test(size=SIZE) as pilot:
        await opened(pilot, rows=1)
        await line(pilot, ":activity failed sms 1h by:cause")
        await until(pilot, lambda: _groups(first) == SMS_GROUPS, what="the groups")
        await line(pilot, ":view save sms-hour")
        await until(pilot, lambda: "sms-hour" in ConfigFile.load().views(), what="saved")
    assert stat.S_IMODE(profile.stat().st_mode) == 0o600
    saved = ConfigFile.load().views()["sms-hour"]
    assert saved["profile"] == "real" and saved["everyone"] and saved["window"] == "1h"
    assert saved["environment_id"]  # the key's environment, learned on connecting

    # A restart: a new app reads the file anew, on the same profile.
    second = started()
    async with second.run_test(size=SIZE) as pilot:
        await opened(pilot, rows=1)
        assert not isinstance(second.screen, ActivityScreen)
        await line(pilot, ":sms-hour")
        await until(pilot, lambda: _groups(second) == SMS_GROUPS, what="the view again")
        assert "last 1 h" in str(second.screen.query_one("#activity-state").render())

    # The command line runs the view the app saved: the same groups (in a thread of its
    # own, as it runs its own event loop).
    code, out, err = await asyncio.to_thread(run, capsys, "activity", "--view", "sms-hour")
    assert code == 0, err
    rows = [line.split()[:6] for line in out.splitlines()[1:4]]
    assert rows[0] == ["4", "provider", "error", "sms", "twilio", "21610"]
    assert rows[1] == ["2", "provider", "error", "sms", "twilio", "21211"]
    assert rows[2][:3] == ["1", "missing", "address"]


@pytest.fixture
def two_environments(service: Service, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """Staging and Other behind a production-shaped server whose keys act in their own
    environment only; the config file holds a view of each of Other and Production."""
    config = tmp_path / "config.toml"
    config.write_text(
        f'[views.other-inbox]\nkind = "inbox"\nprofile = "work"\nenvironment_id = "{OTHER}"\n'
        'environment = "Other"\nsubscriber = "jane"\n'
        '[views.prod-failed]\nkind = "activity"\nprofile = "work"\n'
        'environment_id = "env-prod"\nenvironment = "Production"\neveryone = true\n'
        "failed = true\n"
    )
    monkeypatch.setenv("INBOXDESK_CONFIG", str(config))
    service.store.add_api_key(OTHER, SENTINEL)
    return service.url


async def test_a_view_of_another_environment_opens_there_or_names_the_missing_key(
    two_environments: str, notices: Notices
) -> None:
    with production_shaped(two_environments, scoped=True) as url:
        app = app_on(url, *BOTH)
        async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
            await inbox_of(pilot, "jane", 12)
            await until(pilot, lambda: header(app).endswith("· Staging"), what="Staging")

            # No key for Production: said, naming it, and nothing changes.
            await line(pilot, ":prod-failed")
            said = notices.saying("view 'prod-failed' is of the environment Production")
            assert said and "(env-prod)" in said[0].message and "add-key" in said[0].message
            assert header(app).endswith("· Staging") and app.screen.id == "inbox"

            # Other's view opens in Other, with Other's key: jane's two messages there.
            await line(pilot, ":other-inbox")
            await until(pilot, lambda: header(app).endswith("· ⚠ Other"), what="Other")
            await inbox_of(pilot, "jane", 2)

            # `:env` goes back by name; an environment without a key is named.
            await line(pilot, ":env Staging")
            await until(pilot, lambda: header(app).endswith("· Staging"), what="Staging again")
            await inbox_of(pilot, "jane", 12)
            await line(pilot, ":env Production")
            assert notices.saying("no key for an environment 'Production'; expected one of:")
            assert header(app).endswith("· Staging")
    assert SENTINEL not in " ".join(n.message for n in notices)
