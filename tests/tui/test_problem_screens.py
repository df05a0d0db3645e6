"""A start-up problem screen (no API key; settings naming an environment with no key)
says what to do; ctrl+e there says there is nothing to switch to, the app keeps running,
and quitting exits 2: a settings problem."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from inboxdesk.config import Settings
from inboxdesk.config.models import EnvironmentKey
from inboxdesk.tui.app import make_app
from inboxdesk.tui.screens.problem import ProblemScreen
from tests.tui.conftest import SIZE, Notices, plain, problem_shown, until

NO_KEY = Settings(base_url="http://127.0.0.1:9")
NO_SUCH_ENVIRONMENT = Settings(
    base_url="http://127.0.0.1:9",
    profile="work",
    environment="Nowhere",
    environments={"65d000000000000000000002": EnvironmentKey(name="Staging", api_key="k" * 32)},
)


@pytest.mark.parametrize(
    ("settings", "what_to_do"),
    [(NO_KEY, "inboxdesk config init"), (NO_SUCH_ENVIRONMENT, "Nowhere")],
    ids=["no key", "settings"],
)
async def test_ctrl_e_on_a_problem_screen_says_so(
    settings: Settings, what_to_do: str, notices: Notices
) -> None:
    app = make_app(settings)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await problem_shown(pilot)
        assert what_to_do in plain(app.screen.query_one("#problem-message", Static))
        await pilot.press("ctrl+e")
        await until(pilot, lambda: notices.saying("No environment to switch to"), what="said")
        assert app.is_running and isinstance(app.screen, ProblemScreen)
        await pilot.press("q")
    assert app.return_code == 2
