"""Where production's database is looser than its document.

The local service's bodies are checked against the excerpt with this overlay, and the
client's property tests generate bodies from it, so both cover what production really
sends. Each change names the shape it allows:

- condition items written by older dashboards: no `isNegated`, no `type`; children with
  an `_id`, `on: tenant`, and a `value` of any JSON type;
- integrations carry `priority` (any JSON number) and may carry `rules`;
- a job's `providerId`, which the excerpt marks required on every job: production
  sends none on a digest, delay or throttle job, nor on a channel step that found no
  active integration (the activity test asks for it on every other channel job); and
  the tool channel's providers (`pagerduty`), which the excerpt's enum leaves out;
- already optional in the excerpt, though the contract marks them required, and so
  checked as they are: `credentials` absent on set primary, `channel` absent on
  agent-kind integrations, and `configurations` without its signing key for API keys.
"""

from __future__ import annotations

import copy
from typing import Any

ANY_JSON: dict[str, Any] = {
    "anyOf": [
        {"type": "string"},
        {"type": "integer"},
        {"type": "number"},
        {"type": "boolean"},
        {"type": "null"},
        {"type": "array", "items": {"type": "string"}},
    ]
}


def loosened(schemas: dict[str, Any]) -> dict[str, Any]:
    """A copy of the excerpt's schemas with the overlay applied."""
    out = copy.deepcopy(schemas)
    step = out["StepFilterDto"]
    step["required"] = ["children", "value"]
    part = out["FieldFilterPartDto"]
    part["properties"]["on"]["enum"] = [*part["properties"]["on"]["enum"], "tenant"]
    part["properties"]["value"] = ANY_JSON
    part["properties"]["_id"] = {"type": "string"}
    integration = out["IntegrationResponseDto"]
    assert "channel" not in integration["required"] and "credentials" not in integration["required"]
    job = out["ActivityNotificationJobResponseDto"]
    job["required"] = [r for r in job["required"] if r != "providerId"]
    out["ProvidersIdEnum"]["enum"] = [*out["ProvidersIdEnum"]["enum"], "pagerduty"]
    integration["properties"]["priority"] = {"type": "number"}
    integration["properties"]["rules"] = {"type": "array", "items": {"type": "string"}}
    return out
