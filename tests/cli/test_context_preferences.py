"""`inboxdesk preferences --context type:id`: a context's records, decision 125's note,
and where they differ from the no-context ones; read from the local service and from a
production-shaped server in front of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.command_line import run_with_key
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.preference_fixture import preference_fixture
from tests.production_shaped import production_shaped

ADA = "/v2/subscribers/ada.lovelace/preferences"


@pytest.fixture
def acme_off(make_service: ServiceFactory) -> Service:
    """Ada turned email off globally for tenant:acme alone."""
    service = make_service(preference_fixture(), context_preferences=True)
    with service.http() as http:
        done = http.patch(ADA, json={"channels": {"email": False}, "context": {"tenant": "acme"}})
        assert done.status_code == 200, done.text
    return service


def test_the_context_is_named_with_its_note_and_its_difference(
    acme_off: Service,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    seen: list[str] = []
    with production_shaped(acme_off.url, seen=seen) as url:
        code, out, err = run_with_key(
            monkeypatch,
            capsys,
            tmp_path,
            url,
            STAGING_KEY,
            "preferences",
            "ada.lovelace",
            "--context",
            "tenant:acme",
        )
    assert code == 0, err
    assert out.startswith(
        "Context: tenant:acme (context records apply only where your organization has "
        "context preferences on; otherwise the no-context ones did)."
    )
    global_row = next(line for line in out.splitlines() if line.startswith("Global"))
    assert "OFF*" in global_row
    assert "Beside no context: Global (every workflow) · email: OFF here, on without a context" in (
        out
    )
    assert any("contextKeys=tenant%3Aacme" in s for s in seen), seen


def test_a_bad_context_reads_nothing(
    acme_off: Service,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    code, out, err = run_with_key(
        monkeypatch,
        capsys,
        tmp_path,
        acme_off.url,
        STAGING_KEY,
        "preferences",
        "ada.lovelace",
        "--context",
        "acme",
    )
    assert code == 2
    assert out == ""
    assert "'acme' is not a context key: give type:id, as tenant:acme." in err


def test_set_preference_in_a_context_and_its_undo(
    make_service: ServiceFactory,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    service = make_service(preference_fixture(), context_preferences=True)

    def email(*context: str) -> bool:
        with service.http() as http:
            params = [("contextKeys", k) for k in context]
            return bool(http.get(ADA, params=params).json()["data"]["global"]["channels"]["email"])

    def run(*args: str) -> tuple[int, str, str]:
        return run_with_key(monkeypatch, capsys, tmp_path, service.url, STAGING_KEY, *args)

    code, out, err = run(
        "set-preference", "ada.lovelace", "--channel", "email", "--off", "--context", "tenant:acme"
    )
    assert code == 0, err
    assert "email for every workflow (global) in context tenant:acme: on (the default) → off" in (
        out
    )
    assert "Context records: context records apply only where" in out
    assert email("tenant:acme") is False and email() is True
    undo = next(line for line in out.splitlines() if "inboxdesk undo" in line).split()[-1]
    code, out, err = run("undo", undo, "--yes")
    assert code == 0, err
    assert email("tenant:acme") is True and email() is True
