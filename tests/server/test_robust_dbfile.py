"""A database file deleted or replaced under a running service: requests get 503, and
writes are not lost silently."""

from __future__ import annotations

import logging
import shutil

import pytest

from tests.conftest import Service, jane_message

MARK = "/v1/subscribers/jane/messages/mark-as"
BODY = {"messageId": jane_message(1), "markAs": "read"}


def _refused(service: Service, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="inboxdesk.server"), service.http() as http:
        response = http.post(MARK, json=BODY)
        assert response.status_code == 503, response.text
        body = response.json()
        assert body["statusCode"] == 503 and body["path"] == MARK
        assert "deleted or replaced" in body["message"]
        # A read would open the path anew and see an empty database: refused too.
        assert http.get("/v1/integrations").status_code == 503
        for path in ("/v2/subscribers", "/v2/subscribers/jane/notifications/count?filters=[{}]"):
            assert http.get(path).status_code == 503, path
    assert any("deleted or replaced" in r.getMessage() for r in caplog.records)


def test_writes_fail_once_the_database_is_deleted(
    service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    service.db_path.unlink()
    _refused(service, caplog)
    assert not service.db_path.exists(), "no empty database was created in its place"


def test_writes_fail_once_the_database_is_replaced(
    service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    copy = service.db_path.with_name(f"{service.db_path.stem}-copy.db")
    shutil.copyfile(service.db_path, copy)
    copy.replace(service.db_path)
    _refused(service, caplog)


def test_writes_work_while_the_file_is_in_place(service: Service) -> None:
    with service.http() as http:
        assert http.post(MARK, json=BODY).status_code == 201
