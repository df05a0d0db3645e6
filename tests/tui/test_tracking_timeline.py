"""The timeline of an email sent through an integration without delivery tracking says
a bounce may never be reported (decision 127), on the real service and its worker."""

from __future__ import annotations

from inboxdesk.core.delivery.tracking import UNTRACKED
from inboxdesk.tui.activity.timeline import TimelineView
from tests.conftest import ServiceFactory
from tests.trigger_fixture import TRIGGER_KEY, trigger_fixture
from tests.tui.conftest import SIZE, app_for, first_timeline, until


async def test_the_timeline_says_tracking_is_off(make_service: ServiceFactory) -> None:
    fixture = trigger_fixture()
    for item in fixture["environments"][0]["integrations"]:
        item.pop("configurations", None)
    service = make_service(fixture)
    with service.http(TRIGGER_KEY) as http:
        sent = http.post("/v1/events/trigger", json={"name": "email", "to": "ada"})
        assert sent.status_code == 201, sent.text
    service.store.worker.run_due()
    app = app_for(service, key=TRIGGER_KEY, subscriber="ada")
    async with app.run_test(size=SIZE) as pilot:
        await first_timeline(pilot, "the notification")
        await until(
            pilot,
            lambda: UNTRACKED in app.screen.query_one(TimelineView).text,
            what="the note on tracking",
        )
