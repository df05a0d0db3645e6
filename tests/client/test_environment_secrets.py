"""Environments' secret API keys never leave the client:
not printed, not in --json, not in a repr, a view, or a crash file. Tested against a
production-shaped server on loopback, since the local service never sends them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from inboxdesk.cli import integration_commands, main
from inboxdesk.client import ClientOptions, InboxClient
from inboxdesk.models import Environment
from tests.client.faults import loopback_client
from tests.conftest import MAILGUN, STAGING_KEY, ServiceFactory
from tests.production_shaped import SECRET_HASH, SECRET_KEYS, production_shaped

SECRETS = (*SECRET_KEYS, SECRET_HASH, SECRET_KEYS[0][-4:], SECRET_KEYS[1][-4:])


def leaked(text: str) -> list[str]:
    return [s for s in SECRETS if s in text]


@pytest.fixture
def shaped(make_service: ServiceFactory) -> Iterator[str]:
    """Production's per-organization flag, on a deployment whose keys list every
    environment's integrations (the app's Integrations view expects both)."""
    with production_shaped(make_service(org_wide_integrations=True).url) as url:
        yield url


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, shaped: str) -> Path:
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", shaped)
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    return tmp_path / "logs"


async def test_the_server_really_sends_them_and_the_models_drop_them(shaped: str) -> None:

    headers = {"Authorization": f"ApiKey {STAGING_KEY}"}
    with loopback_client(base_url=shaped, headers=headers) as h:
        assert SECRET_KEYS[0] in h.get("/v1/environments").text, "the test server is shaped"
    async with InboxClient(shaped, STAGING_KEY, ClientOptions()) as client:
        environments = await client.list_environments()
        own = await client.own_environment()
    assert own is not None and own.name == "Staging" and own.api_key_count == 2
    for environment in [*environments, own]:
        assert environment.api_key_count == 2
        for shown in (
            repr(environment),
            str(environment),
            str(environment.model_dump()),
            str(environment.to_wire()),
            environment.model_dump_json(),
            str(environment.model_extra),
        ):
            assert leaked(shown) == [], shown


def test_other_key_material_is_masked_too() -> None:
    environment = Environment.model_validate(
        {
            "_id": "e",
            "name": "Production",
            "_organizationId": "o",
            "identifier": "prod",
            "apiKey": SECRET_KEYS[0],
            "signingSecret": SECRET_KEYS[1],
        }
    )
    assert leaked(repr(environment) + environment.model_dump_json()) == []


def test_no_command_prints_them(cli: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["environments"],
        ["environments", "--json"],
        ["integrations"],
        ["integrations", "--json", "--environment", "Staging"],
        ["set-primary", "--yes", MAILGUN],
        ["set-primary", "--json", MAILGUN],
    ):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 0, (argv, err)
        assert leaked(out + err) == [], argv
    assert "Staging" in out or "Mailgun" in out


def test_a_crash_file_holds_none_of_them(
    cli: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("a bug while printing environments")

    monkeypatch.setattr(integration_commands, "table", broken)
    assert main(["environments"]) == 70
    capsys.readouterr()
    (crash,) = cli.glob("crash-*.log")
    text = crash.read_text()
    assert "a bug while printing environments" in text and leaked(text) == []


async def test_the_app_shows_none_of_them(shaped: str) -> None:
    from inboxdesk.config import Settings
    from inboxdesk.tui.app import make_app
    from tests.tui.conftest import SIZE, until
    from tests.tui.test_integrations import integrations

    client = InboxClient(shaped, STAGING_KEY, ClientOptions())
    settings = Settings(base_url=shaped, api_key=STAGING_KEY)  # type: ignore[arg-type]
    app = make_app(settings, client=client, subscriber_id="jane")
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await integrations(pilot)
        await until(pilot, lambda: app.scope is not None, what="environments loaded")
        assert "Staging" in str(app.title)
        screen = app.export_screenshot()
        assert leaked(screen) == []
        assert leaked(repr(app.scope)) == []
