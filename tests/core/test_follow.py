"""Following a feed: polls fast, backs off once calm, keeps a bounded ring of the
newest rows whatever the run's length (on a fake clock)."""

from __future__ import annotations

import tracemalloc

from inboxdesk.core.delivery.follow_feed import Follow
from inboxdesk.models.delivery import ActivityNotification


def item(n: int) -> ActivityNotification:
    return ActivityNotification.model_validate({"_id": f"{n:024x}", "jobs": []})


def test_new_rows_go_on_top_once_and_backoff_follows_them() -> None:
    follow = Follow()
    follow.start([item(2), item(1)], now=0)
    assert follow.interval(10) == 3.0
    assert [n.id for n in follow.merge([item(3), item(2)], now=30)] == [item(3).id]
    assert [n.id for n in follow.rows] == [item(3).id, item(2).id, item(1).id]
    assert follow.merge([item(3), item(2)], now=60) == []
    assert follow.interval(89) == 3.0  # a minute since the last new row: not yet
    assert follow.interval(91) == 30.0
    follow.merge([item(4)], now=100)
    assert follow.interval(101) == 3.0


def test_the_ring_bounds_memory_over_a_long_run() -> None:
    follow = Follow(ring=500)
    follow.start([], now=0)
    clock = 0.0
    n = 0

    def poll(count: int) -> None:
        nonlocal clock, n
        for _ in range(count):
            page = [item(n + k) for k in range(50, 0, -1)]
            n += 50
            follow.merge(page, clock)
            clock += follow.interval(clock)

    tracemalloc.start()
    poll(20)  # warm-up: the ring fills
    warm = tracemalloc.get_traced_memory()[0]
    poll(100)  # 5,000 more rows: ten ring's worth
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(follow.rows) == 500
    assert follow.rows[0].id == item(n).id
    assert after <= warm * 1.1
