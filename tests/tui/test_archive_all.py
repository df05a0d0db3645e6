"""Archive all (`x`) and archive all read (`X`) in the inbox: a confirmation with the
number and what the bulk operation does differently, then the list read again."""

from __future__ import annotations

from textual.widgets import Static

from inboxdesk.tui.screens.confirm import ConfirmScreen
from tests.conftest import Service
from tests.tui.conftest import SIZE, app_for, plain, settled, until
from tests.tui.test_inbox import opened


def jane(service: Service, where: str) -> int:
    subscriber = service.row(
        "SELECT id FROM subscribers WHERE json_extract(doc, '$.subscriberId') = 'jane'"
    )[0]
    return int(
        service.row(
            f"SELECT COUNT(*) FROM messages WHERE subscriber_pk = ? AND ({where})", subscriber
        )[0]
    )


async def test_archive_all_asks_with_the_number_then_archives(service: Service) -> None:
    """`X` (the read ones), then `x` (all that are left), in one app."""
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        for key, which in (("X", "read = 1"), ("x", "archived = 0")):
            shown = jane(service, f"channel = 'in_app' AND archived = 0 AND ({which})")
            assert shown > 0, key
            await pilot.press(key)
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked")
            question = plain(app.screen.query_one("#question", Static))
            detail = plain(app.screen.query_one("#detail", Static))
            assert f"Archive all {shown} " in question and "in-app messages of jane" in question
            assert "every channel" in detail and "first 100" in detail
            assert "cannot be undone" in detail
            await pilot.press("y")
            await until(pilot, lambda w=which: jane(service, f"archived = 0 AND ({w})") == 0)
            await settled(pilot)
            # The Inbox tab lists what is not archived: read again from the service.
            await until(
                pilot,
                lambda: (
                    screen.table.row_count == jane(service, "channel = 'in_app' AND archived = 0")
                ),
                what="the list read again",
            )
