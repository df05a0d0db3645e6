"""The Environment resource: one of an organization's environments (Development, ...).

`GET /v1/environments` may carry every environment's secret API keys (`apiKeys`) when
the caller may see them (self-hosted and older deployments give them to any key). They
are dropped as the body is read, before any model holds them, so no repr, `--json`,
log or crash file can show them: only how many there were is kept.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from inboxdesk.models.base import ApiModel, Open
from inboxdesk.models.enums import EnvironmentType
from inboxdesk.models.secrets import is_secret

# Names of fields that hold key material, whatever else a server sends beside them.
_KEY_FIELDS = frozenset({"apiKeys", "apiKey", "keys"})
# The document's own fields, kept whatever they look like.
_SHOWN = frozenset({"_id", "name", "_organizationId", "identifier", "type", "_parentId", "slug"})


class Environment(ApiModel):
    id: str = Field(alias="_id")
    name: str
    organization_id: str = Field(alias="_organizationId")
    identifier: str
    type: Open[EnvironmentType] | None = None
    parent_id: str | None = Field(None, alias="_parentId")
    slug: str | None = None
    # How many API keys the server sent (never the keys themselves).
    api_key_count: int = Field(0, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _drop_keys(cls, data: Any) -> Any:
        """Key material leaves before validation, and so does any other secret-looking
        field (not even a masked tail is kept: an environment's keys are never shown)."""
        if not isinstance(data, dict):
            return data
        count = sum(
            len(v) if isinstance(v, list) else 1 for k, v in data.items() if k in _KEY_FIELDS
        )
        kept = {
            k: v
            for k, v in data.items()
            if k not in _KEY_FIELDS and (k in _SHOWN or not is_secret(str(k), v))
        }
        kept["api_key_count"] = count
        return kept
