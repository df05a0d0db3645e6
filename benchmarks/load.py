"""5. The local service under load: 16 concurrent clients for 10 s on loopback.

mark-as and set-primary against a constant-JSON endpoint on the same framework and
server (the stack's own ceiling), then twenty concurrent set-primary calls.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Callable

import httpx

from benchmarks.common import Figure, async_http, free_port, message_ids, percentile, service

CLIENTS = 16
SECONDS = 10.0
EMAIL = [f"65e0000000000000000{n:05d}" for n in range(4)]

CEILING = """
import sys
import uvicorn
from fastapi import FastAPI
from fastapi.responses import JSONResponse

app = FastAPI()
BODY = {"data": [{"_id": "6b0000000000000000000001", "read": True, "seen": True}]}

@app.post("/constant")
def constant() -> JSONResponse:
    return JSONResponse(BODY, 201)

uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", access_log=False)
"""

Request = Callable[[httpx.AsyncClient, int], tuple[str, str, dict[str, object] | None]]


async def hammer(url: str, make: Request) -> dict[str, float]:
    latencies: list[float] = []
    failures = 0
    deadline = time.perf_counter() + SECONDS

    async def worker(n: int) -> None:
        nonlocal failures
        async with async_http(url) as http:
            i = n
            while time.perf_counter() < deadline:
                method, path, body = make(http, i)
                started = time.perf_counter()
                response = await http.request(method, path, json=body)
                latencies.append(time.perf_counter() - started)
                if response.status_code >= 300:
                    failures += 1
                i += CLIENTS

    started = time.perf_counter()
    await asyncio.gather(*(worker(n) for n in range(CLIENTS)))
    elapsed = time.perf_counter() - started
    return {
        "rps": len(latencies) / elapsed,
        "p99_ms": percentile(latencies, 99) * 1000,
        "requests": len(latencies),
        "failures": failures,
    }


def ceiling() -> dict[str, float]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", CEILING, str(port)])
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx.post(f"{url}/constant", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        return asyncio.run(hammer(url, lambda http, i: ("POST", "/constant", None)))
    finally:
        process.terminate()
        process.wait()


async def twenty_at_once(url: str) -> tuple[int, int]:
    async with async_http(url) as http:
        responses = await asyncio.gather(
            *(http.post(f"/v1/integrations/{EMAIL[n % 4]}/set-primary") for n in range(20))
        )
        items = (await http.get("/v1/integrations")).json()["data"]
    failed = sum(r.status_code != 200 for r in responses)
    primaries = sum(1 for i in items if i["channel"] == "email" and i["primary"])
    return failed, primaries


def measure() -> dict[str, dict[str, float]]:
    results = {"constant JSON (ceiling)": ceiling()}
    with service({"ada": 100}) as svc:
        ids = message_ids(svc.url, "ada", 100)

        def mark(http: httpx.AsyncClient, i: int) -> tuple[str, str, dict[str, object] | None]:
            body = {"messageId": ids[i % len(ids)], "markAs": ("read", "unread")[i % 2]}
            return "POST", "/v1/subscribers/ada/messages/mark-as", body

        def primary(http: httpx.AsyncClient, i: int) -> tuple[str, str, dict[str, object] | None]:
            return "POST", f"/v1/integrations/{EMAIL[i % 4]}/set-primary", None

        results["mark-as"] = asyncio.run(hammer(svc.url, mark))
        results["set-primary"] = asyncio.run(hammer(svc.url, primary))
        failed, primaries = asyncio.run(twenty_at_once(svc.url))
        results["twenty concurrent set-primary"] = {"failed": failed, "primaries": primaries}
    return results


def figures(r: dict[str, dict[str, float]]) -> list[Figure]:
    share = r["mark-as"]["rps"] / r["constant JSON (ceiling)"]["rps"]
    twenty = r["twenty concurrent set-primary"]
    return [
        Figure("load.mark_as_share_of_ceiling", share, "ratio", "≥ 0.5", share >= 0.5),
        Figure(
            "load.failed_requests",
            r["mark-as"]["failures"] + r["set-primary"]["failures"],
            "requests",
            "0",
            r["mark-as"]["failures"] + r["set-primary"]["failures"] == 0,
        ),
        Figure(
            "load.primaries_after_20_concurrent",
            twenty["primaries"],
            "integrations",
            "1",
            twenty["primaries"] == 1 and twenty["failed"] == 0,
        ),
    ]


def report(r: dict[str, dict[str, float]]) -> str:
    top = r["constant JSON (ceiling)"]["rps"]
    lines = [
        "| endpoint | requests/s | p99 | share of the ceiling | failed |",
        "|---|---|---|---|---|",
    ]
    for name in ("constant JSON (ceiling)", "mark-as", "set-primary"):
        x = r[name]
        lines.append(
            f"| {name} | {x['rps']:.0f} | {x['p99_ms']:.1f} ms | "
            f"{x['rps'] / top:.2f} | {int(x['failures'])} of {int(x['requests'])} |"
        )
    twenty = r["twenty concurrent set-primary"]
    lines.append(
        f"\nTwenty concurrent set-primary calls: {int(twenty['failed'])} failed, "
        f"{int(twenty['primaries'])} email primary afterwards (target: 0 and 1)."
    )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(measure()))
