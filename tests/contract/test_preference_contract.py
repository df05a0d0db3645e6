"""The local service's preference answers validate against the schemas production's
excerpt gives them: every criticality, each change, bulk, and each refusal."""

from __future__ import annotations

from tests.conftest import ServiceFactory
from tests.contract.test_server_contract import check
from tests.preference_fixture import preference_fixture

ADA = "/v2/subscribers/ada.lovelace/preferences"


def test_every_preference_answer_validates(make_service: ServiceFactory) -> None:
    service = make_service(preference_fixture())
    with service.http() as http:
        for criticality in ("nonCritical", "critical", "all"):
            check(http.get(ADA, params={"criticality": criticality}))
        check(http.get(ADA))
        check(http.patch(ADA, json={"workflowId": "order-shipped", "channels": {"email": True}}))
        check(http.patch(ADA, json={"channels": {"sms": True}, "schedule": {"isEnabled": True}}))
        bulk = {"preferences": [{"workflowId": "weekly-digest", "channels": {"tool": False}}]}
        check(http.patch(f"{ADA}/bulk", json=bulk))
        refusals = [
            http.get("/v2/subscribers/nobody/preferences"),
            http.patch(ADA, json={"workflowId": "nope", "channels": {}}),
            http.patch(ADA, json={"workflowId": "security-alert", "channels": {}}),
            http.patch(ADA, json={"workflowId": "order-shipped", "channels": {"email": 1}}),
            http.patch(f"{ADA}/bulk", json={"preferences": []}),
            http.patch(f"{ADA}/bulk", json={"preferences": [{"workflowId": "a", "channels": {}}]}),
        ]
    assert [r.status_code for r in refusals] == [404, 404, 400, 422, 400, 404]
    for answer in refusals:
        check(answer)
