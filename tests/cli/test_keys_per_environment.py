"""A profile holds one key per environment: filed by the environment the service names,
each request sent with the key of the environment it acts in, and a missing key said
with the command that adds it. Against the local service, and a production-shaped one
whose keys see and switch only their own environment."""

from __future__ import annotations

import io
import json
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from inboxdesk.cli import main
from tests.conftest import (
    MAILGUN,
    OTHER_KEY,
    OTHER_SMTP,
    POSTMARK,
    SENDGRID,
    STAGING_KEY,
    Service,
    ServiceFactory,
)
from tests.production_shaped import production_shaped

STAGING, OTHER = "65d000000000000000000002", "65d000000000000000000003"
# A key that must never be shown: added to Other beside its fixture key.
SENTINEL = "sk_test_SENTINEL0123456789abcdefZQXW"


class Script(io.StringIO):
    def isatty(self) -> bool:
        return False


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, service: Service) -> Path:
    """No key in the environment, a config file of the test's own; the service's Other
    environment also takes the sentinel key."""
    for name in ("NOVU_SECRET_KEY", "INBOXDESK_PROFILE", "INBOXDESK_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("INBOXDESK_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setattr("sys.stdin", Script(""))
    service.store.add_api_key(OTHER, SENTINEL)
    return tmp_path / "config.toml"


def run(
    capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None
) -> tuple[int, str, str]:
    if stdin is not None:
        pytest.MonkeyPatch().setattr("sys.stdin", Script(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert SENTINEL not in out + err and SENTINEL[-4:] not in err, "a key was shown"
    return code, out, err


def profile(path: Path, name: str = "work") -> dict[str, object]:
    data = tomllib.loads(path.read_text())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    found: dict[str, object] = data["profiles"][name]
    return found


def both_keys(capsys: pytest.CaptureFixture[str], url: str) -> None:
    """Profile `work` on `url` with Staging's key, then Other's (the sentinel)."""
    code, out, _ = run(
        capsys,
        *("config", "add-profile", "work", "--base-url", url, "--api-key", "-"),
        stdin=STAGING_KEY + "\n",
    )
    assert code == 0 and "with the key of Staging" in out
    code, out, _ = run(capsys, "config", "add-key", "work", stdin=SENTINEL + "\n")
    assert code == 0 and "Filed the key of Other in profile work" in out


@pytest.fixture
def scoped(service: Service) -> Iterator[str]:
    with production_shaped(service.url, scoped=True) as url:
        yield url


def test_add_key_files_each_key_under_its_environment(
    home: Path, service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    both_keys(capsys, service.url)
    table = profile(home)
    assert "api_key" not in table
    assert table["environments"] == {
        STAGING: {"name": "Staging", "api_key": STAGING_KEY},
        OTHER: {"name": "Other", "api_key": SENTINEL},
    }
    code, out, _ = run(capsys, "config", "show")
    assert code == 0
    rows = out.split("ENVIRONMENT", 1)[1].splitlines()
    assert rows[1].split()[:2] == ["Staging", STAGING] and "••••cdef" in rows[1]
    assert rows[2].split()[:2] == ["Other", OTHER] and "••••ZQXW" in rows[2]
    code, out, _ = run(capsys, "config", "show", "--json")
    keys = json.loads(out)["data"]["keys"]
    assert [(k["environment"], k["key"]) for k in keys] == [
        ("Staging", "••••cdef"),
        ("Other", "••••ZQXW"),
    ]


def test_replacing_a_key_asks_and_another_organizations_is_refused(
    home: Path, service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    both_keys(capsys, service.url)
    # Other's own fixture key, in place of the sentinel: a script must say --yes.
    code, _, err = run(capsys, "config", "add-key", "work", stdin=OTHER_KEY + "\n")
    assert code == 2 and "holds a key of Other already; pass --yes" in err
    assert profile(home)["environments"][OTHER]["api_key"] == SENTINEL  # type: ignore[index]
    code, _, _ = run(capsys, "config", "add-key", "work", "--yes", stdin=OTHER_KEY + "\n")
    assert code == 0
    assert profile(home)["environments"][OTHER]["api_key"] == OTHER_KEY  # type: ignore[index]
    from inboxdesk.server.fixtures import load_fixture

    elsewhere = {
        "_organizationId": "65d0000000000000000000aa",
        "environments": [{"name": "Elsewhere", "apiKey": "elsewhere-key-0123456789abc"}],
    }
    load_fixture(service.store, elsewhere, organization="Another company")
    before = home.read_text()
    code, _, err = run(capsys, "config", "add-key", "work", stdin="elsewhere-key-0123456789abc\n")
    assert code == 2 and "belongs to another organization" in err
    assert home.read_text() == before


def test_an_environment_the_service_cannot_name_needs_its_id(
    home: Path, make_service: object, capsys: pytest.CaptureFixture[str]
) -> None:
    """No /environments/me, and nothing of the key's to tell its environment by."""
    empty_key = "empty-key-0123456789abcdef"
    fixture = {
        "environments": [{"name": "Empty", "_id": "65d0000000000000000000bb", "apiKey": empty_key}]
    }
    service: Service = make_service(fixture)  # type: ignore[operator]
    with production_shaped(service.url, no_me=True) as url:
        code, _, err = run(
            capsys,
            *("config", "add-profile", "bare", "--base-url", url, "--api-key", "-"),
            stdin=empty_key + "\n",
        )
        assert code == 1 and "did not say which environment" in err and "--environment-id" in err
        assert not home.exists() or "bare" not in home.read_text()
        code, _, _ = run(
            capsys,
            *("config", "add-profile", "bare", "--base-url", url, "--api-key", "-"),
            *("--environment-id", "65d0000000000000000000bb"),
            stdin=empty_key + "\n",
        )
        assert code == 0
    assert list(profile(home, "bare")["environments"]) == ["65d0000000000000000000bb"]  # type: ignore[call-overload]


def test_an_old_profiles_key_moves_under_its_environment_on_first_use(
    home: Path, service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    home.write_text(
        f'default_profile = "old"\n[profiles.old]\nbase_url = "{service.url}"\n'
        f'api_key = "{STAGING_KEY}"\n'
    )
    home.chmod(0o600)
    code, _, _ = run(capsys, "counts", "jane")
    assert code == 0
    table = profile(home, "old")
    assert "api_key" not in table and table["base_url"] == service.url
    assert table["environments"] == {STAGING: {"name": "Staging", "api_key": STAGING_KEY}}


def test_environment_picks_the_key_before_or_after_the_command(
    home: Path, service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    both_keys(capsys, service.url)
    # Jane lives in both environments with other messages: each count is its own.
    _, staging, _ = run(capsys, "counts", "jane", "--json")
    _, other, _ = run(capsys, "--environment", "Other", "counts", "jane", "--json")
    _, after, _ = run(capsys, "counts", "jane", "--json", "--environment", "other")
    assert json.loads(other) == json.loads(after) != json.loads(staging)
    code, out, _ = run(capsys, "--profile", "work", "--json", "environments")
    assert code == 0 and json.loads(out)["data"][0]["name"] == "Staging"
    code, out, _ = run(capsys, "--profile", "work", "config", "show", "--json")
    assert code == 0 and len(json.loads(out)["data"]["keys"]) == 2


def test_no_key_for_the_environment_sends_nothing(
    home: Path, service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = run(
        capsys,
        *("config", "add-profile", "work", "--base-url", service.url, "--api-key", "-"),
        stdin=STAGING_KEY + "\n",
    )
    assert code == 0
    # Pointed at a port where nothing listens: exit 2 (settings), not 1 (unreachable).
    code, _, _ = run(capsys, "config", "set", "base_url", "http://127.0.0.1:9")
    for argv in (["counts", "jane"], ["integrations"], ["set-primary", OTHER_SMTP]):
        code, out, err = run(capsys, *argv, "--environment", "Other")
        assert code == 2 and out == "", argv
        assert "Profile work holds no key for Other (it holds Staging)" in err
        assert "nothing was sent" in err and "`inboxdesk config add-key work`" in err


def test_novu_secret_key_replaces_the_set(
    home: Path,
    scoped: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    both_keys(capsys, scoped)
    monkeypatch.setenv("NOVU_SECRET_KEY", OTHER_KEY)
    code, out, _ = run(capsys, "integrations", "--json")
    assert code == 0 and {i["_id"] for i in json.loads(out)["data"]} == {POSTMARK, OTHER_SMTP}
    code, _, err = run(capsys, "integrations", "--environment", "Staging")
    assert code == 2 and "NOVU_SECRET_KEY holds one key, Other's" in err


def test_integrations_merge_every_key_and_name_the_ones_without(
    home: Path, scoped: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = run(
        capsys,
        *("config", "add-profile", "work", "--base-url", scoped, "--api-key", "-"),
        stdin=STAGING_KEY + "\n",
    )
    code, out, _ = run(capsys, "integrations")
    lines = out.splitlines()
    assert code == 0 and all(r.startswith("Staging") for r in lines[1:9])
    assert lines[9:] == [
        "Other: no key held, so not listed; add its key with `inboxdesk config add-key work`."
    ]
    run(capsys, "config", "add-key", "work", stdin=SENTINEL + "\n")
    code, out, _ = run(capsys, "integrations")
    lines = out.splitlines()
    assert len(lines) == 11 and [r.split()[0] for r in lines[1:]] == ["Staging"] * 8 + ["Other"] * 2
    code, out, _ = run(capsys, "integrations", "--environment", "Other", "--ids")
    assert code == 0 and set(out.split()) == {POSTMARK, OTHER_SMTP}


def test_set_primary_finds_the_environment_and_sends_with_its_key(
    home: Path, service: Service, scoped: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = run(
        capsys,
        *("config", "add-profile", "work", "--base-url", scoped, "--api-key", "-"),
        stdin=STAGING_KEY + "\n",
    )
    before = service.snapshot()
    code, out, err = run(capsys, "set-primary", "--yes", OTHER_SMTP)
    assert code == 1 and out == ""
    assert (
        f"Integration {OTHER_SMTP} was not found in Staging; Other is not readable without "
        "its key: `inboxdesk config add-key work`." in err
    )
    run(capsys, "config", "add-key", "work", stdin=SENTINEL + "\n")
    code, _, err = run(capsys, "set-primary", "--yes", "--environment", "Staging", OTHER_SMTP)
    assert code == 2 and "is in Other, not in Staging: nothing was sent" in err
    assert service.snapshot() == before
    code, out, err = run(capsys, "set-primary", "--yes", OTHER_SMTP)
    assert code == 0, err
    assert out.splitlines()[0] == "SMTP (nodemailer) is now the primary email integration of Other."
    row = service.row("SELECT is_primary FROM integrations WHERE id = ?", POSTMARK)
    assert not row[0]
    code, out, _ = run(capsys, "set-primary", "--yes", MAILGUN, "--environment", "staging")
    assert code == 0 and "of Staging" in out
    code, out, _ = run(capsys, "history")
    assert code == 0 and "Other" in out and "Staging" in out
    code, out, _ = run(capsys, "history", "--environment", "other")
    rows = out.splitlines()[1:]
    assert code == 0 and len(rows) == 1 and rows[0].split()[3] == "Other"
    # The journal holds no key.
    for path in (home.parent / "user-data").rglob("*"):
        if path.is_file():
            assert SENTINEL.encode() not in path.read_bytes(), path


def test_a_403_names_both_environments_and_never_blames_the_key(
    home: Path,
    service: Service,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deployment that lists every environment's integrations yet refuses a switch in
    another: the typed confirmation is given, and the 403 is explained."""
    with production_shaped(
        service.url, forbid_across=True, organization_keys=(STAGING_KEY, OTHER_KEY)
    ) as url:
        monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
        monkeypatch.setenv("INBOXDESK_BASE_URL", url)
        before = service.snapshot()
        code, out, err = run(capsys, "set-primary", "--environment", "Other", OTHER_SMTP, "--yes")
    assert code == 1 and out == ""
    assert "went with Staging's key and the integration is in Other" in err
    assert "a key acts only in its own environment" in err and "(403)" in err
    assert "inboxdesk config add-key" in err
    assert "check the key" not in err.lower() and "rejected the api key" not in err.lower()
    assert service.snapshot() == before
    assert SENDGRID  # Staging's primary untouched, as the snapshot shows


def test_set_primary_found_with_one_key_plans_from_what_the_sending_key_lists(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    make_service: ServiceFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An older deployment lists Other's integrations to Staging's key too: the switch
    goes with Other's key, held, and plans from what that key lists, asked for once more
    (the listing of the key that found it may not be what the sending key sees)."""
    older = make_service(org_wide_integrations=True)
    for name in ("NOVU_SECRET_KEY", "INBOXDESK_PROFILE", "INBOXDESK_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("INBOXDESK_CONFIG", str(tmp_path / "config.toml"))
    older.store.add_api_key(OTHER, SENTINEL)
    seen: list[str] = []
    with production_shaped(older.url, seen=seen) as url:
        both_keys(capsys, url)
        seen.clear()
        code, out, err = run(capsys, "set-primary", "--yes", OTHER_SMTP)
    assert code == 0, err
    assert out.splitlines()[0] == "SMTP (nodemailer) is now the primary email integration of Other."
    listings = [p for p in seen if p.split("?")[0] == "/v1/integrations"]
    assert len(listings) == 2, seen  # Staging's key found it; Other's key listed again
    assert seen[-1] == f"/v1/integrations/{OTHER_SMTP}/set-primary"
    row = older.row("SELECT is_primary FROM integrations WHERE id = ?", POSTMARK)
    assert not row[0]
