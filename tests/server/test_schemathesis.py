"""A bounded schemathesis run against the local service over loopback HTTP.

Every operation of /openapi.json gets a few dozen generated requests (derandomized, so
the run is the same each time); each response must pass schemathesis's checks.
"""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import positive_data_acceptance

from tests.conftest import STAGING_KEY, Service

EXAMPLES_PER_OPERATION = 25

# Deliberate, documented exclusions (reason each):
EXCLUDED_CHECKS = [
    # Ids (integrationId, messageId) must be 24-character hex ids; routes.py checks that
    # in code and answers 422 with the field, but the schema types them as plain strings,
    # so schemathesis counts "0" as valid data wrongly rejected.
    positive_data_acceptance,
]


def _exercise(operation: Any, base_url: str) -> None:
    """Send the operation's generated requests; raises on the first failed check."""
    auth = {"Authorization": f"ApiKey {STAGING_KEY}"}

    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def run(data: Any) -> None:
        case = data.draw(operation.as_strategy())
        case.call_and_validate(base_url=base_url, headers=auth, excluded_checks=EXCLUDED_CHECKS)

    run()


def test_every_operation_survives_generated_requests(service: Service) -> None:
    with service.http(None) as http:
        raw = http.get("/openapi.json").json()
    operations = [
        result.ok() for result in schemathesis.openapi.from_dict(raw).get_all_operations()
    ]
    assert len(operations) >= 8, [op.label for op in operations]
    failures: list[str] = []
    for operation in operations:
        try:
            _exercise(operation, service.url)
        except Exception as exc:  # every operation's failure in one report
            failures.append(f"{operation.label}: {str(exc)[:2000]}")
    assert not failures, "\n\n".join(failures)
