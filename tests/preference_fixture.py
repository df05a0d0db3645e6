"""A small fixture for the preference tests: three workflows (one critical), two
subscribers, and Ada's two opt-outs (order emails, and SMS everywhere)."""

from __future__ import annotations

from typing import Any

from tests.conftest import STAGING_KEY


def _step(kind: str, active: bool = True) -> dict[str, Any]:
    return {"name": kind, "active": active, "template": {"type": kind}}


def _workflow(name: str, steps: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    identifier = name.lower().replace(" ", "-")
    return {
        "name": name,
        "steps": steps,
        "triggers": [{"type": "event", "identifier": identifier, "variables": []}],
        **extra,
    }


def preference_fixture() -> dict[str, Any]:
    return {
        "environments": [
            {
                "name": "Staging",
                "apiKey": STAGING_KEY,
                "workflows": [
                    _workflow("Order shipped", [_step("in_app"), _step("email"), _step("sms")]),
                    _workflow(
                        "Weekly digest",
                        [_step("in_app"), _step("email"), _step("tool"), _step("push", False)],
                        preferenceSettings={"email": False},
                    ),
                    _workflow("Security alert", [_step("email"), _step("sms")], critical=True),
                ],
                "subscribers": [
                    {"subscriberId": "ada.lovelace", "firstName": "Ada", "lastName": "Lovelace"},
                    {"subscriberId": "grace.hopper", "firstName": "Grace"},
                ],
                "preferences": [
                    {
                        "subscriberId": "ada.lovelace",
                        "workflow": "Order shipped",
                        "channels": {"email": False},
                    },
                    {"subscriberId": "ada.lovelace", "channels": {"sms": False}},
                ],
            }
        ]
    }
