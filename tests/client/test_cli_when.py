"""When (decision 126): the preferences list says when each workflow's choices last
changed, and the delivery of a step a workflow's preference canceled says whether that
change came before the notification or since."""

from __future__ import annotations

import json

import pytest

from inboxdesk.core.preferences import when_words
from tests.client.conftest import run
from tests.client.test_delivery import delivered  # noqa: F401 (the fixture)
from tests.conftest import Service


def test_when_words() -> None:
    before = when_words("2026-11-01T08:30:00.000Z", "2026-11-12T10:00:00.000Z", "email")
    assert before == (
        "this workflow's choices last changed on 2026-11-01 08:30 UTC, before this notification"
    )
    since = when_words("2026-11-30T10:00:00.000Z", "2026-11-12T10:00:00.000Z", "email")
    assert since is not None and since.endswith("changed since: when email went off is unknown")
    assert when_words(None, "2026-11-12T10:00:00.000Z", "email") is None


def test_changed_since_the_notification(
    delivered: Service,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "delivery", "txn-pref-workflow")
    assert code == 0, err
    joined = " ".join(out.split())
    assert (
        "when this workflow's choices last changed on 2026-11-30 10:00 UTC: changed since: "
        "when email went off is unknown" in joined
    )
    code, out, err = run(capsys, "delivery", "txn-pref-global")
    assert code == 0 and "last changed" not in out, "the global preference has no date"
    code, out, err = run(capsys, "preferences", "jane")
    assert code == 0, err
    order = next(line for line in out.splitlines() if line.startswith("Order shipped"))
    assert order.split()[-3:] == ["2026-11-30", "10:00", "UTC"]
    code, out, err = run(capsys, "preferences", "jane", "--workflow", "Order shipped", "--json")
    assert json.loads(out)["data"][0]["updatedAt"].startswith("2026-11-30T10:00:00")


def test_a_bounce_names_the_integration_that_reported_it(
    delivered: Service,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "delivery", "txn-11")
    assert code == 0, err
    joined = " ".join(out.split())
    assert "sent, then bounced" in joined
    assert "reported by the integration SendGrid (sendgrid)" in joined, joined
    # SendGrid's own word for it, read beside its text.
    assert "SendGrid bounce: the receiving server rejected the address" in joined
