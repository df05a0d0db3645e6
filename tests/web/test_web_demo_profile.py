"""The browser demo's apps hold every demo environment's key, as the terminal demo does:
each app resolves the demo's own profile from a 0600 file in the demo's scratch folder,
and no key travels in a variable or reaches the output."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from inboxdesk.cli import main
from inboxdesk.cli.demo_service import DemoService, demo_service
from inboxdesk.cli.web import demo_environment
from inboxdesk.config import Settings
from tests.client.faults import loopback_client


@pytest.fixture(scope="module")
def demo() -> Iterator[DemoService]:
    """One demo for the module: the tests only read from it."""
    with demo_service(None, ()) as running:
        yield running


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    env: dict[str, str | None],
    home: Path,
    *args: str,
) -> subprocess.CompletedProcess[str]:
    """`inboxdesk ARGS` in this process, under the environment a browser session's app
    is given (over the user's own, with a key of theirs in NOVU_SECRET_KEY)."""
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("NOVU_SECRET_KEY", "sk-the-users-own")
    for name, value in env.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    code = main(list(args))
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, out, err)


def test_the_browser_demos_apps_hold_every_environments_key(
    demo: DemoService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = demo.scratch / "app.toml"
    env = demo_environment(Settings(), demo, config)
    keys = [held.api_key for held, _ in demo.environments]
    names = {held.name for held, _ in demo.environments}
    assert len(keys) >= 2
    assert config.stat().st_mode & 0o777 == 0o600
    # No key in a variable: the user's own NOVU_SECRET_KEY is taken away too.
    assert env["NOVU_SECRET_KEY"] is None
    assert not any(key in (value or "") for value in env.values() for key in keys)

    shown = run(monkeypatch, capsys, env, tmp_path, "config", "show", "--json")
    assert shown.returncode == 0, shown.stderr
    held = json.loads(shown.stdout)["data"]["keys"]
    assert {k["environment"] for k in held} == names

    listed = run(monkeypatch, capsys, env, tmp_path, "integrations", "--json")
    assert listed.returncode == 0, listed.stderr
    environments = {i["_environmentId"] for i in json.loads(listed.stdout)["data"]}
    assert environments == {held.environment_id for held, _ in demo.environments}

    for out in (shown, listed):
        assert not any(key in out.stdout + out.stderr for key in keys)


def test_the_demo_opens_on_ada_whose_stories_it_holds(demo: DemoService) -> None:
    """Without --subscriber the demo opens on Ada, who has every delivery story."""
    assert demo.subscriber is not None
    key = demo.environments[0][0].api_key
    headers = {"Authorization": f"ApiKey {key}"}
    with loopback_client(demo.url, headers=headers) as http:
        one = http.get(f"/v2/subscribers/{demo.subscriber}")
        feed = http.get("/v1/notifications", params={"subscriberIds": demo.subscriber, "limit": 50})
    assert one.status_code == 200 and one.json()["data"]["firstName"] == "Ada"
    assert feed.status_code == 200
    channels = {job["type"] for n in feed.json()["data"] for job in n["jobs"]}
    assert {"email", "sms", "push", "chat", "in_app"} <= channels
