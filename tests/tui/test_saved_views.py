"""Saved views through Pilot (decision 121): a view of another environment opens there
with its key, or names the key that is missing and changes nothing. A view saved, then
reopened from the config file (and by the command line):
tests/tui/test_command_line.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Service
from tests.production_shaped import production_shaped
from tests.tui.conftest import SIZE, Notices, until
from tests.tui.test_command_line import line
from tests.tui.test_environments import BOTH, OTHER, SENTINEL, app_on, header, inbox_of


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

            # `:env` with an environment without a key names it and changes nothing. (With
            # a key, `:env` switches as the view above did, by the same switch; the key
            # found by its name: tests/cli/test_keys_per_environment.py.)
            await line(pilot, ":env Production")
            assert notices.saying("no key for an environment 'Production'; expected one of:")
            assert header(app).endswith("· ⚠ Other")
    assert SENTINEL not in " ".join(n.message for n in notices)
