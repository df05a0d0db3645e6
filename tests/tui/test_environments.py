"""The app with a key per environment, through Pilot: the header names the environment
acted in, ctrl+e and the palette switch among those with a key (the inbox follows,
on the same subscriber where it exists), the Integrations view merges every key's
listing, a switch of a primary goes with the integration's environment's key, and a
saved view of another environment opens there with its key, or names the key that is
missing and changes nothing (decision 121). Served by a production-shaped server whose
keys see and switch their own environment only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from inboxdesk.config import Settings
from inboxdesk.config.models import EnvironmentKey
from inboxdesk.tui.app import InboxdeskApp, make_app
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.integrations.screen import IntegrationsScreen
from inboxdesk.tui.integrations.table import IntegrationTable
from inboxdesk.tui.screens.confirm import ConfirmScreen, TypedConfirmScreen
from inboxdesk.tui.screens.picker import SubscriberPicker
from inboxdesk.tui.widgets.app_header import AppHeader
from inboxdesk.writes import WriteStore
from tests.conftest import (
    EXAMPLE,
    OTHER_ENV_MESSAGES,
    OTHER_KEY,
    OTHER_SMTP,
    POSTMARK,
    STAGING_KEY,
    Service,
    jane_message,
)
from tests.production_shaped import production_shaped
from tests.tui.conftest import SIZE, Notices, plain, ran, until, view_listing

STAGING, OTHER = "65d000000000000000000002", "65d000000000000000000003"
SENTINEL = "sk_test_SENTINEL0123456789abcdefZQXW"


@pytest.fixture
def scoped(service: Service) -> Iterator[str]:
    service.store.add_api_key(OTHER, SENTINEL)
    with production_shaped(service.url, scoped=True) as url:
        yield url


def app_on(
    url: str, *keys: tuple[str, str, str | None, str], subscriber: str = "jane"
) -> InboxdeskApp:
    """The app on profile `work` holding `keys` (id, name, type, key), the first current."""
    held = {i: EnvironmentKey(name=n, type=t, api_key=k) for i, n, t, k in keys}
    settings = Settings(base_url=url, profile="work", environments=held)
    app = make_app(settings, subscriber_id=subscriber, writes=WriteStore(None))
    app.animation_level = "none"
    return app


BOTH = ((STAGING, "Staging", "dev", STAGING_KEY), (OTHER, "Other", "prod", SENTINEL))


async def inbox_of(pilot: Pilot[None], subscriber: str, rows: int) -> InboxScreen:
    app = pilot.app
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, InboxScreen)
            and app.screen.subscriber_id == subscriber
            and app.screen.table.row_count == rows
        ),
        what=f"{subscriber}'s {rows} rows",
    )
    assert isinstance(app.screen, InboxScreen)
    return app.screen


def header(app: InboxdeskApp) -> str:
    """The headers' title (their sub-title, the service's URL, follows it)."""
    return app.title


def saved_views(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The config file holds a view of each of Other and Production (no key held)."""
    config = tmp_path / "config.toml"
    config.write_text(
        f'[views.other-inbox]\nkind = "inbox"\nprofile = "work"\nenvironment_id = "{OTHER}"\n'
        'environment = "Other"\nsubscriber = "jane"\n'
        '[views.prod-failed]\nkind = "activity"\nprofile = "work"\n'
        'environment_id = "env-prod"\nenvironment = "Production"\neveryone = true\n'
        "failed = true\n"
    )
    monkeypatch.setenv("INBOXDESK_CONFIG", str(config))


@pytest.mark.slow
async def test_ctrl_e_switches_the_environment_and_the_views_follow(
    scoped: str,
    service: Service,
    notices: Notices,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """Integrations merges both keys' listings, switches a primary with its
    environment's key, and stays Integrations across a switch; a subscriber absent
    there is said and the picker opens; the inbox follows a switch back, on the same
    subscriber where she exists there. Then saved views (decision 121): one of an
    environment without a key names it and changes nothing; one of Other opens there,
    with Other's key. (A view saved, then reopened from the config file and by the
    command line: tests/tui/test_command_line.py.)"""
    saved_views(monkeypatch, tmp_path)
    app = app_on(scoped, *BOTH, subscriber="joe")
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await inbox_of(pilot, "joe", 3)
        await until(pilot, lambda: header(app) == "inboxdesk · work · Staging", what="the header")
        assert "⚠" not in header(app)
        # Integrations merges both keys' listings; a switch of a primary in Other goes
        # with Other's key (the server refuses Staging's there).
        screen = await view_listing(pilot, "2", IntegrationsScreen, IntegrationTable, 10, "view 2")
        table = screen.query_one(IntegrationTable)
        table.move_cursor(row=table.get_row_index(OTHER_SMTP))
        await pilot.pause()
        await pilot.press("p")
        # Other's key is held: a plain confirmation, naming Other.
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
        question = plain(app.screen.query_one("#question", Static))
        assert "the primary email integration of Other?" in question
        await pilot.press("y")

        def primary(integration: str) -> bool:
            row = service.row("SELECT is_primary FROM integrations WHERE id = ?", integration)
            return bool(row[0])

        await until(pilot, lambda: primary(OTHER_SMTP), what="the switch")
        assert not primary(POSTMARK)
        await until(pilot, lambda: app.screen is screen, what="back in Integrations")
        # From Integrations, a switch stays in Integrations, now of the other environment;
        # Joe has no inbox there: said, and the picker opens over it.
        await pilot.press("ctrl+e")
        await until(pilot, lambda: isinstance(app.screen, SubscriberPicker), what="the picker")
        assert notices.saying("Subscriber 'joe' was not found in this environment. Pick one.")
        assert header(app).endswith("· ⚠ Other")
        under = app.screen_stack[0]
        assert isinstance(under, IntegrationsScreen) and under is not screen
        # What showed meanwhile: its line styled by the app's stylesheet.
        switching = app.get_screen_stack("switching")[0].query_one("#connecting", Static)
        assert "switching environments" in plain(switching)
        assert switching.styles.padding == (1, 2, 1, 2)
        await until(pilot, lambda: isinstance(app.screen.focused, Input), what="picker focus")
        await pilot.press(*"jane", "enter")
        # Jane lives in Other too, with her own two messages there.
        await inbox_of(pilot, "jane", 2)
        title = app.screen.query_one(AppHeader).format_title()
        warned = [s for s in title.spans if "warning" in str(s.style)]
        assert warned and title.plain[warned[0].start : warned[0].end] == "⚠ Other"
        # Back through the palette's entry for the other environment.
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Switch environment: Staging" in titles
        assert "Switch environment: Other" not in titles
        await app.run_action(f"switch_environment({STAGING!r})")
        # Jane exists in Staging: the inbox follows her there.
        await inbox_of(pilot, "jane", 12)
        await until(pilot, lambda: header(app).endswith("· Staging"), what="Staging again")

        # A saved view of an environment without a key: said, naming it, and nothing
        # changes.
        await ran(pilot, ":prod-failed")
        said = notices.saying("view 'prod-failed' is of the environment Production")
        assert said and "(env-prod)" in said[0].message and "add-key" in said[0].message
        assert header(app).endswith("· Staging") and app.screen.id == "inbox"

        # Other's view opens in Other, with Other's key: jane's two messages there.
        await ran(pilot, ":other-inbox")
        await until(pilot, lambda: header(app).endswith("· ⚠ Other"), what="Other")
        await inbox_of(pilot, "jane", 2)

        # `:env` with an environment without a key names it and changes nothing. (With
        # a key, `:env` switches as the view above did, by the same switch; the key
        # found by its name: tests/cli/test_keys_per_environment.py.)
        await ran(pilot, ":env Production")
        assert notices.saying("no key for an environment 'Production'; expected one of:")
        assert header(app).endswith("· ⚠ Other")
    assert SENTINEL not in " ".join(n.message for n in notices)


async def test_one_key_lists_its_own_and_names_the_others_with_the_command(
    scoped: str, notices: Notices
) -> None:
    app = app_on(scoped, BOTH[0])
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await inbox_of(pilot, "jane", 12)
        await pilot.press("ctrl+e")
        await until(pilot, lambda: notices.saying("`inboxdesk config add-key work` adds"))
        assert isinstance(app.screen, InboxScreen) and app.screen.subscriber_id == "jane"
        assert not [c for c in app.get_system_commands(app.screen) if "environment" in c.title]
        await pilot.press("2")
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, IntegrationsScreen)
                and app.screen.query_one(IntegrationTable).row_count == 8
                and app.screen.query_one("#without-key", Static).display
            ),
            what="Staging's integrations and the line for Other",
        )
        said = plain(app.screen.query_one("#without-key", Static))
        assert "Other: no key held, so not listed; add its key with" in said
        assert "`inboxdesk config add-key work`" in said


async def test_a_403_names_both_environments_never_the_key(
    service: Service, notices: Notices
) -> None:
    """A deployment listing every environment's integrations to a key, yet refusing a
    switch in another: the typed confirmation, then the 403 said as what it means."""
    with production_shaped(
        service.url, forbid_across=True, organization_keys=(STAGING_KEY, OTHER_KEY)
    ) as url:
        app = app_on(url, BOTH[0])
        async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
            await inbox_of(pilot, "jane", 12)
            await view_listing(
                pilot, "2", IntegrationsScreen, IntegrationTable, 10, "the integrations"
            )
            table = app.screen.query_one(IntegrationTable)
            table.move_cursor(row=table.get_row_index(OTHER_SMTP))
            await pilot.pause()
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, TypedConfirmScreen))
            app.screen.query_one(Input).value = "Other"
            await pilot.press("enter")
            await until(pilot, lambda: notices.saying("went with Staging's key"), what="403")
    said = " ".join(n.message for n in notices)
    assert "the integration is in Other" in said and "inboxdesk config add-key work" in said
    assert "check the key" not in said.lower() and "rejected the api key" not in said.lower()
    assert SENTINEL not in said


async def test_the_demo_holds_every_environments_key_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The demo's profile holds each environment's key, in memory only, the first the
    one the app opens on; each key reads its own environment. That the app switches
    among the keys a profile holds, named in its header, is the ctrl+e walk above."""
    from inboxdesk.cli.app_commands import demo_settings
    from inboxdesk.cli.demo_service import demo_service
    from inboxdesk.client import InboxClient

    config = tmp_path / "config.toml"
    monkeypatch.setenv("INBOXDESK_CONFIG", str(config))
    # The demo's mechanism on the small example fixture (the demo data takes seconds).
    with demo_service(None, [EXAMPLE]) as demo:
        settings = demo_settings(Settings(), demo)
        assert settings.profile == "demo" and settings.api_key is None
        held = list(settings.environments.values())
        assert [k.name for k in held] == ["Staging", "Other"]
        assert settings.environment is None, "the app opens on the first"
        read = []
        for key in held:
            assert key.api_key is not None
            async with InboxClient(settings.base_url, key.api_key) as client:
                listed = await client.list_messages(limit=100, subscriber_id="jane")
            read.append({m.id for m in listed.data})
        assert jane_message(11) in read[0] and read[1] == set(OTHER_ENV_MESSAGES)
    assert not config.exists(), "the demo's profile is never written"
