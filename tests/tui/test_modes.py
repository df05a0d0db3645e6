"""Views as Textual modes (tui/modes.py): one list of them, each reached by its key.
That each is built once on first use (left and opened again, the same screen), that
the timeline's Esc goes back to the view it was opened from, and that a question is
pushed within the current mode: the walk of
tests/tui/test_activity.py::test_from_the_inbox_and_activity_to_a_notification_s_timeline.
That an environment switch builds them again with the new key:
tests/tui/test_environments.py (the inbox and Integrations of the other environment)."""

from __future__ import annotations

from inboxdesk.tui import view_keys
from inboxdesk.tui.modes import VIEWS, title_of


def test_every_view_key_opens_one_mode_of_the_list() -> None:
    names = [view.name for view in VIEWS]
    assert len(names) == len(set(names))
    keyed = [view for _, view, *_ in (*view_keys.VIEWS, view_keys.SUBSCRIBER_VIEW)]
    assert {"subscriber" if v == "subscriber_view" else v for v in keyed} < set(names)
    assert {"timeline", "preferences"} < set(names)
    assert title_of("timeline") == "Timeline" and title_of("help") == "inboxdesk"
