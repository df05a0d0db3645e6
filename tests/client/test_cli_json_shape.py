"""One JSON item per message, whichever endpoint a command read (docs/json.md), the
service's own bodies with --raw, lists in the envelope, and --json refused with
--export."""

from __future__ import annotations

import json

import pytest

from inboxdesk.cli.items import FIELDS
from tests.client.conftest import run
from tests.conftest import Service, jane_message


def data(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code, out, err = run(capsys, *argv)
    assert code in (0, 3), err
    body = json.loads(out)
    assert isinstance(body, dict)
    return body


def test_every_command_prints_the_same_item(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    target = jane_message(3)
    listed = data(capsys, "messages", "jane", "--all", "--json")["data"]
    assert isinstance(listed, list)
    (from_list,) = [m for m in listed if m["id"] == target]
    transaction = from_list["transactionId"]
    found = data(capsys, "message", str(transaction), "--json")["data"]
    marked = data(capsys, "mark-as", "jane", "seen", target, "--json")["data"]
    archived = data(capsys, "archive", "jane", target, "--json")["data"]
    items = [from_list, *found, *marked, *archived]  # type: ignore[misc]
    assert all(tuple(item) == FIELDS for item in items), [tuple(i) for i in items]
    assert {item["id"] for item in items} == {target}
    assert {item["subject"] for item in items} == {from_list["subject"]}
    assert marked[0]["seen"] is True and archived[0]["archived"] is True  # type: ignore[index]
    assert found[0]["archived"] is None, "the v1 lookup does not say"  # type: ignore[index]


def test_raw_prints_the_service_s_bodies(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    v2 = data(capsys, "messages", "jane", "--json", "--raw", "--limit", "1")["data"]
    v1 = data(capsys, "mark-as", "jane", "read", jane_message(1), "--json", "--raw")["data"]
    assert "isRead" in v2[0] and "read" not in v2[0]  # type: ignore[index]
    assert "_id" in v1[0] and "id" not in v1[0]  # type: ignore[index]


def test_not_updated_and_failed_are_both_lists(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    ghost = "65f0000000000000000fffff"
    body = data(capsys, "archive", "jane", jane_message(1), ghost, "--json")
    assert body["notUpdated"] == [ghost] and body["failed"] == [ghost]
    body = data(capsys, "archive", "jane", jane_message(2), "--json")
    assert body["notUpdated"] == [] and body["failed"] == []


def test_json_with_export_is_refused(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "history", "--export", "csv", "--json")
    assert code == 2 and out == "" and "cannot be combined" in err
