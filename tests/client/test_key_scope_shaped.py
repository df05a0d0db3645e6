"""A key scoped to its environment, as production answers it, through a production-shaped
server on loopback and from the local service itself: the environment list carries the
key's own environment's keys, and a switch of another environment's integration is
refused with production's 403. The key itself, a sentinel, appears in no output, file,
error or repr."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from inboxdesk.cli import main
from inboxdesk.client import ApiError, ClientOptions, InboxClient, RetryPolicy
from inboxdesk.server.fixtures import read_fixture
from tests.client.faults import loopback_client
from tests.conftest import EXAMPLE, MAILGUN, OTHER_KEY, OTHER_SMTP, Service, ServiceFactory
from tests.production_shaped import production_shaped

SENTINEL = "sk_sentinel_9c2e71d4b8a3f6e5zyxw"
FORBIDDEN = (
    "API key authentication is scoped to a single environment and cannot set as primary "
    "an integration that belongs to a different environment."
)


def leaked(text: str) -> bool:
    return SENTINEL in text or SENTINEL[-8:] in text


@pytest.fixture
def sentinel_service(make_service: ServiceFactory) -> Service:
    """The example organization, its Staging environment's key the sentinel."""
    fixture = read_fixture(EXAMPLE)
    fixture["environments"][0]["apiKey"] = SENTINEL
    return make_service(fixture)


@pytest.fixture(params=["production-shaped", "local"])
def shaped(sentinel_service: Service, request: pytest.FixtureRequest) -> Iterator[str]:
    """The production-shaped server in front of the local service, or the local service
    itself: each sends the key's own environment's keys."""
    if request.param == "local":
        yield sentinel_service.url
        return
    with production_shaped(sentinel_service.url, every_key=False) as url:
        yield url


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, shaped: str) -> Path:
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", shaped)
    monkeypatch.setenv("NOVU_SECRET_KEY", SENTINEL)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    return tmp_path


def test_the_key_reads_its_own_environments_keys_only(shaped: str) -> None:
    headers = {"Authorization": f"ApiKey {SENTINEL}"}
    with loopback_client(base_url=shaped, headers=headers) as h:
        environments = h.get("/v1/environments").json()["data"]
    keys = {e["name"]: [k["key"] for k in e["apiKeys"]] for e in environments}
    assert keys == {"Staging": [SENTINEL], "Other": []}, "the server really sends it"
    headers = {"Authorization": f"ApiKey {OTHER_KEY}"}
    with loopback_client(base_url=shaped, headers=headers) as h:
        environments = h.get("/v1/environments").json()["data"]
    assert {e["name"]: len(e["apiKeys"]) for e in environments} == {"Staging": 0, "Other": 1}


async def test_the_client_gets_the_403_and_holds_no_key(
    shaped: str, sentinel_service: Service
) -> None:
    before = sentinel_service.snapshot()
    options = ClientOptions(retry=RetryPolicy(attempts=1))
    async with InboxClient(shaped, SENTINEL, options) as client:
        environments = await client.list_environments()
        integrations = await client.list_integrations()
        switched = await client.set_primary(MAILGUN)  # 201 from the shaped server, 200 here
        with pytest.raises(ApiError) as refused:
            await client.set_primary(OTHER_SMTP)
    assert switched.primary and switched.id == MAILGUN
    assert {i.environment_id for i in integrations} == {environments[0].id}
    assert refused.value.status == 403
    assert FORBIDDEN in str(refused.value)
    for shown in (
        str(refused.value),
        repr(refused.value),
        refused.value.hint or "",
        repr(environments),
        repr(integrations),
        "".join(e.model_dump_json() for e in environments),
    ):
        assert not leaked(shown), shown
    assert environments[0].api_key_count == 1 and environments[1].api_key_count == 0
    row = sentinel_service.row("SELECT is_primary FROM integrations WHERE id = ?", OTHER_SMTP)
    assert row[0] == 0, "the other environment's integration did not change"
    assert sentinel_service.snapshot() != before  # Mailgun's own switch did


def test_no_command_output_or_file_holds_the_key(
    cli: Path, sentinel_service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    codes = {}
    for argv in (
        ["environments"],
        ["environments", "--json"],
        ["integrations"],
        ["integrations", "--json"],
        ["set-primary", "--yes", MAILGUN],
        ["set-primary", "--yes", OTHER_SMTP],
        ["set-primary", "--yes", "--json", OTHER_SMTP],
        ["history"],
    ):
        codes[" ".join(argv)] = main(argv)
        out, err = capsys.readouterr()
        assert not leaked(out + err), argv
    assert codes["environments"] == codes["integrations --json"] == 0
    assert codes["set-primary --yes " + MAILGUN] == 0
    # Another environment's integration: the key cannot switch it, and nothing changes.
    assert codes["set-primary --yes " + OTHER_SMTP] == 1
    row = sentinel_service.row("SELECT is_primary FROM integrations WHERE id = ?", OTHER_SMTP)
    assert row[0] == 0
    # The command line's own files: settings, logs, the journal (the service's database
    # is the service's, and holds its keys as production's does).
    files = [p for d in ("config", "logs", "user-data") for p in (cli / d).rglob("*")]
    assert any(p.is_file() for p in files), "the journal was written"
    for path in filter(Path.is_file, files):
        assert not leaked(path.read_bytes().decode("utf-8", "replace")), path
