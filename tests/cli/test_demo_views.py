"""The demo's saved views go to its scratch folder (decision 121), never the user's config
file: in a terminal (`inboxdesk demo`) and in a browser (`inboxdesk demo --web`, whose
sessions share the scratch file, so a view saved in one is listed in the next)."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from inboxdesk.cli import app_commands
from inboxdesk.cli.demo_service import demo_service
from inboxdesk.cli.web import demo_environment
from inboxdesk.config import ConfigFile, Settings, resolve
from inboxdesk.core.views import make_view
from inboxdesk.tui.app import InboxdeskApp
from inboxdesk.tui.command_line import config_views
from tests.conftest import EXAMPLE
from tests.tui.conftest import SIZE, line, until
from tests.tui.test_inbox import opened

USER_FILE = '[app]\ntheme = "nord"\n[aliases]\nmine = ":sub joe"\n'


async def save_and_reopen(app: InboxdeskApp, name: str) -> None:
    """Save the inbox as view `name`, then open it again by name."""
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, rows=1)
        await line(pilot, f":view save {name}")
        await until(pilot, lambda: name in ConfigFile.load().views(), what="the view saved")
        await line(pilot, f":{name}")
        await until(pilot, lambda: app.screen.id == "inbox", what="the view open")


def test_the_terminal_demo_saves_views_in_its_scratch_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "config.toml"
    user.write_text(USER_FILE)
    monkeypatch.setenv("INBOXDESK_CONFIG", str(user))
    seen: dict[str, Any] = {}

    def run_app(app: InboxdeskApp, headless: bool = False) -> int:
        """The demo's app, driven through Pilot in place of a terminal."""
        asyncio.run(save_and_reopen(app, "demo-inbox"))
        seen["file"] = Path(os.environ["INBOXDESK_CONFIG"])
        seen["views"] = ConfigFile.load().views()
        seen["mode"] = stat.S_IMODE(seen["file"].stat().st_mode)
        return 0

    monkeypatch.setattr(app_commands, "run_app", run_app)
    assert app_commands.run_demo(None, None, [EXAMPLE]) == 0
    file: Path = seen["file"]
    assert file.name == "config.toml" and file.parent.name.startswith("inboxdesk-demo-")
    view = seen["views"]["demo-inbox"]
    assert view["profile"] == "demo" and view["subscriber"]
    assert seen["mode"] == 0o600
    assert not file.parent.exists(), "the scratch folder goes with the demo"
    assert user.read_text() == USER_FILE, "the user's own file is untouched"


def test_the_browser_demo_s_sessions_share_views_in_its_scratch_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session's app saves a view where its environment's INBOXDESK_CONFIG names, as
    the app's `:view save` does in the terminal demo above (config_views, the file the
    : line reads and writes): here the scratch file the browser demo's sessions share."""
    user = tmp_path / "config.toml"
    user.write_text(USER_FILE)
    monkeypatch.setenv("INBOXDESK_CONFIG", str(user))
    with demo_service(None, [EXAMPLE]) as demo:
        scratch = demo.scratch / "app.toml"
        # Each browser session's app runs under this environment (cli/web.py).
        for name, value in demo_environment(Settings(), demo, scratch).items():
            if value is None:
                monkeypatch.delenv(name, raising=False)
            else:
                monkeypatch.setenv(name, value)
        first = resolve({})
        _, _, config = config_views()
        assert config.path == scratch
        config.put_view(
            "demo-inbox",
            make_view("demo-inbox", "inbox", profile=first.profile, subscriber="jane").to_table(),
        )
        config.save()
        assert stat.S_IMODE(scratch.stat().st_mode) == 0o600
        assert ConfigFile.load().views()["demo-inbox"]["profile"] == "demo"
        # The next session starts on the same demo profile, every key intact, and lists
        # the view the first one saved (the : line reads the file anew).
        settings = resolve({})
        keys = {held.api_key for held, _ in demo.environments}
        assert {k.api_key for k in settings.environments.values()} == keys
        assert settings.profile == "demo" and "demo-inbox" in config_views()[0]
    assert user.read_text() == USER_FILE
