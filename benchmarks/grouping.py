"""Grouping by cause: the CPU time of the grouping function over 10,000 parsed
notifications (each cause, provider family and code of the demo's kinds, three channel
jobs each, a provider's `raw` answer on every failure).

Usage: .venv/bin/python -m benchmarks.grouping

Also follow mode's memory: ten minutes of polls on a fast clock (one every 3 s, each
page of 50 all new, the worst case), the ring of 2,000 rows; tracemalloc's figure after
the ring filled against the end (target: within 10%).

The notifications are parsed (pydantic) before the clock starts: the figure is the
grouping alone (causes read, codes parsed, groups kept and sorted), median of RUNS
runs, in CPU time (`time.process_time`), against a target of 1 s.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from inboxdesk.core.delivery.grouping import group
from inboxdesk.models.delivery import ActivityNotification

NOTIFICATIONS = 10_000
RUNS = 5
TARGET_S = 1.0


def _detail(detail: str, status: str = "Success", **extra: Any) -> dict[str, Any]:
    return {"status": status, "detail": detail, **extra}


def _sent(kind: str, provider: str | None) -> dict[str, Any]:
    return {
        "type": kind,
        "status": "completed",
        "providerId": provider,
        "executionDetails": [
            _detail("Message created", "Pending"),
            _detail("Message sent", providerId=provider, raw=json.dumps({"id": "x" * 20})),
        ],
    }


def _failed(kind: str, provider: str, raw: dict[str, Any], detail: str) -> dict[str, Any]:
    job = _sent(kind, provider)
    job["status"] = "failed"
    job["executionDetails"].append(
        _detail(detail, "Failed", providerId=provider, raw=json.dumps(raw))
    )
    return job


def _variant(n: int) -> dict[str, Any]:
    """The n-th notification's last job: a mix of failures and successes."""
    pick = n % 10
    if pick < 3:
        code = (21610, 21211, 21614)[n % 3]
        raw = {"status": 400, "code": code, "message": f"refused +1555{n:07d}"}
        return _failed("sms", "twilio", raw, "Unexpected provider error")
    if pick < 5:
        raw = {"event": "bounce", "reason": f"550 5.1.1 <u{n}@example.test> does not exist"}
        return _failed("email", "sendgrid", raw, "Message bounced")
    if pick == 5:
        raw = {"error": {"status": "NOT_FOUND", "details": [{"errorCode": "UNREGISTERED"}]}}
        return _failed("push", "fcm", raw, "Unexpected provider error")
    if pick == 6:
        return {
            "type": "sms",
            "status": "failed",
            "executionDetails": [_detail("Subscriber missing phone number", "Failed")],
        }
    return _sent("email", "sendgrid")


def notifications(count: int = NOTIFICATIONS) -> list[ActivityNotification]:
    out = []
    for n in range(count):
        at = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(1_790_000_000 - n * 30))
        doc = {
            "_id": f"{n:024x}",
            "transactionId": f"t{n}",
            "createdAt": at,
            "channels": ["in_app", "email", "sms"],
            "subscriber": {"subscriberId": f"sub-{n % 700}"},
            "template": {"name": f"Workflow {n % 12}", "triggers": [{"identifier": f"w{n % 12}"}]},
            "jobs": [_sent("in_app", None), _sent("email", "sendgrid"), _variant(n)],
        }
        out.append(ActivityNotification.model_validate(doc))
    return out


def measure(runs: int = RUNS) -> dict[str, float]:
    parsed = notifications()
    times = []
    groups = 0
    for _ in range(runs):
        start = time.process_time()
        groups = len(group(parsed))
        times.append(time.process_time() - start)
    return {"cpu_s": statistics.median(times), "slowest_s": max(times), "groups": groups}


def follow_memory() -> dict[str, float]:
    """Traced memory after warm-up and after ten minutes of polls (a fake clock)."""
    import tracemalloc

    from inboxdesk.core.delivery.follow_feed import Follow

    pages = [notifications(50) for _ in range(2)]
    follow = Follow()
    follow.start([], 0)
    clock, n = 0.0, 0

    def poll() -> None:
        nonlocal clock, n
        page = [p.model_copy(update={"id": f"{n + k:024x}"}) for k, p in enumerate(pages[n % 2])]
        n += len(page)
        follow.merge(page, clock)
        clock += follow.interval(clock)

    tracemalloc.start()
    while len(follow.rows) < follow.ring:
        poll()
    for _ in range(20):
        poll()
    warm = tracemalloc.get_traced_memory()[0]
    start = clock
    while clock - start < 600:
        poll()
    end = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return {"warm": warm, "end": end, "rows": n}


def report(found: dict[str, float]) -> str:
    met = "met" if found["cpu_s"] < TARGET_S else "MISSED"
    return (
        f"grouping {NOTIFICATIONS:,} parsed notifications: {found['cpu_s'] * 1000:.0f} ms CPU "
        f"(median of {RUNS}; slowest {found['slowest_s'] * 1000:.0f} ms) into "
        f"{found['groups']:.0f} groups; target under {TARGET_S:g} s: {met}"
    )


if __name__ == "__main__":
    print(report(measure()))
    memory = follow_memory()
    ratio = memory["end"] / memory["warm"]
    print(
        f"follow mode, ten minutes of polls ({memory['rows']:,.0f} rows seen, ring 2,000): "
        f"{memory['warm'] / 1e6:.1f} MB after warm-up, {memory['end'] / 1e6:.1f} MB at the end "
        f"({ratio:.2f}x; target within 1.10x: {'met' if ratio <= 1.1 else 'MISSED'})"
    )
