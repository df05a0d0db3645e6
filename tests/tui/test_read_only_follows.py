"""Read-only follows the environment acted in, after ctrl+e, both ways: the outbox of an
app that switched to a read-only environment sends nothing there, and one that switched
back to a writable one sends again (it once kept the first environment's flag)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from inboxdesk.config import ConfigFile, Settings
from inboxdesk.config.models import EnvironmentKey
from inboxdesk.config.settings import resolve
from inboxdesk.tui.app import make_app
from inboxdesk.tui.context import WRITE_ACTIONS
from inboxdesk.writes import Failed, Kind, Sent, Step, Write, WriteStore
from tests.conftest import STAGING_KEY, Service
from tests.production_shaped import production_shaped
from tests.tui.conftest import SIZE, settled, until
from tests.tui.test_environments import OTHER, SENTINEL, STAGING, inbox_of
from tests.tui.test_help_and_palette import footer_keys
from tests.tui.test_inbox import stored


@pytest.fixture
def scoped(service: Service) -> Iterator[str]:
    service.store.add_api_key(OTHER, SENTINEL)
    with production_shaped(service.url, scoped=True) as url:
        yield url


def mark_read(message_id: str) -> Write:
    return Write(Kind.MARK, "jane", (Step("read", (message_id,)),))


async def test_read_only_follows_ctrl_e_both_ways(scoped: str, service: Service) -> None:
    held = {
        STAGING: EnvironmentKey(name="Staging", type="dev", api_key=STAGING_KEY),
        OTHER: EnvironmentKey(name="Other", type="prod", api_key=SENTINEL, read_only=True),
    }
    settings = Settings(base_url=scoped, profile="work", environments=held)
    app = make_app(settings, subscriber_id="jane", writes=WriteStore(None))
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await inbox_of(pilot, "jane", 12)
        outbox = app.outbox  # opened in Staging, writable
        assert not outbox.read_only
        await pilot.press("ctrl+e")
        screen = await inbox_of(pilot, "jane", 2)
        await until(pilot, lambda: app.title.endswith("Other · read-only"), what="read-only")
        # An environment the profile marks read_only binds no write key there, and a
        # write key pressed does nothing, as the whole-run setting does.
        await until(
            pilot,
            lambda: not {a.binding.action for a in screen.active_bindings.values()} & WRITE_ACTIONS,
            what="no write key bound",
        )
        other = screen.table.cursor_key
        assert other is not None
        before = stored(service, other)
        await pilot.press("r")
        await settled(pilot)
        assert stored(service, other) == before, "r changed nothing"
        event = await outbox.submit(mark_read(other))
        assert isinstance(event, Failed) and "Read-only" in str(event.error)
        assert stored(service, other) == before, "nothing reached Other"
        await pilot.press("ctrl+e")
        screen = await inbox_of(pilot, "jane", 12)
        await until(pilot, lambda: app.title.endswith("· Staging"), what="Staging again")
        staging = screen.table.cursor_key
        assert staging is not None
        assert isinstance(await outbox.submit(mark_read(staging)), Sent)


async def test_a_key_given_alone_learned_read_only_unbinds_the_write_keys(
    service: Service, tmp_path: Path
) -> None:
    # NOVU_SECRET_KEY's environment is read-only in the profile: known only once the
    # service names the key's environment, after the inbox is built.
    config = tmp_path / "config.toml"
    config.write_text(
        f'[profiles.work]\nbase_url = "{service.url}"\n'
        f'[profiles.work.environments.{STAGING}]\nname = "Staging"\n'
        f'api_key = "{STAGING_KEY}"\nread_only = true\n'
    )
    config.chmod(0o600)
    settings = resolve(
        {"profile": "work"}, {"NOVU_SECRET_KEY": STAGING_KEY}, ConfigFile.load(config)
    )
    app = make_app(settings, subscriber_id="jane", writes=WriteStore(None))
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        screen = await inbox_of(pilot, "jane", 12)
        await until(pilot, lambda: app.title.endswith("Staging · read-only"), what="read-only")
        await until(
            pilot,
            lambda: not {a.binding.action for a in screen.active_bindings.values()} & WRITE_ACTIONS,
            what="no write key bound",
        )
        first = screen.table.cursor_key
        assert first is not None
        before = stored(service, first)
        await pilot.press("r", "e")
        await settled(pilot)
        assert stored(service, first) == before
        await pilot.press("3")  # History opens, without undo
        await until(pilot, lambda: app.screen.id == "history", what="history")
        assert "z" not in {k for k, _ in footer_keys(app.screen)}
