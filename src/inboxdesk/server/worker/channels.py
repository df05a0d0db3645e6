"""A channel job's send: the subscriber's data, the active integration, the provider.

Each function writes the job's execution details in production's order and words and
answers the job's final status (`completed`, `failed` or `canceled`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol

from inboxdesk.models.subscriber_edit import CHAT_PROVIDERS, PUSH_PROVIDERS
from inboxdesk.server.worker import providers
from inboxdesk.server.worker.chain import Chain

NO_INTEGRATION = "Subscriber does not have an active integration"
NO_CHANNEL = "Subscriber does not have a configured channel"
MISSING_TOKENS = (
    "Subscriber credentials is missing the tokens for sending a push notification message"
)
SOME_ERRORS = "There was one or more errors when trying to execute the notification"
PROVIDER_ERROR = "Unexpected provider error"
_VARIABLE = re.compile(r"\{\{\s*([\w.]+)\s*\}\}")


class Work(Protocol):
    """The pass a send runs in (run.py's `Pass`), as far as a send uses it: its time,
    the integrations it reads, and where the job's details, messages and a provider's
    later reports are written."""

    @property
    def now(self) -> datetime: ...

    @property
    def stamp(self) -> str: ...

    def integrations(self, env: str, channel: str) -> list[dict[str, Any]]: ...

    def integration(self, env: str, integration_id: Any) -> dict[str, Any] | None: ...

    def detail(
        self,
        job: Mapping[str, Any],
        text: str,
        status: str,
        raw: Any = None,
        source: str = "Internal",
        provider_id: str | None = None,
    ) -> None: ...

    def message(
        self, job: Mapping[str, Any], chain: Chain, fields: Mapping[str, Any]
    ) -> dict[str, Any]: ...

    def save_message(self, doc: dict[str, Any], insert: bool = True) -> None: ...

    def later(self, job: Mapping[str, Any], reports: list[providers.Report]) -> None: ...


def _render(text: Any, job: Mapping[str, Any], subscriber: Mapping[str, Any]) -> str:
    """A template's `{{payload.x}}` and `{{subscriber.x}}`, filled in."""
    scope = {"payload": job.get("payload") or {}, "subscriber": subscriber}

    def value(found: re.Match[str]) -> str:
        current: Any = scope
        for part in found[1].split("."):
            current = current.get(part) if isinstance(current, Mapping) else None
        return "" if current is None else str(current)

    return _VARIABLE.sub(value, str(text or ""))


def _selected(work: Work, job: Mapping[str, Any], integration: Mapping[str, Any]) -> None:
    provider = str(integration.get("providerId", ""))
    work.detail(
        job,
        f"{providers.display_name(provider)} provider was selected",
        "Pending",
        {
            "providerId": provider,
            "identifier": integration.get("identifier"),
            "name": integration.get("name"),
            "_environmentId": job["_environmentId"],
            "_id": integration.get("_id"),
        },
    )


def _tracking(integration: Mapping[str, Any]) -> bool:
    configurations = integration.get("configurations")
    return (
        isinstance(configurations, Mapping) and configurations.get("inboundWebhookEnabled") is True
    )


def _pick(work: Work, job: Mapping[str, Any], channel: str, override: Any) -> dict[str, Any] | None:
    """The integration an email or sms step uses: the one its override names, else the
    primary, else (no primary held) the newest active one."""
    active = work.integrations(str(job["_environmentId"]), channel)
    if override:
        return next((i for i in active if i.get("identifier") == override), None)
    return next((i for i in active if i.get("primary")), active[0] if active else None)


def _fail(job: dict[str, Any], text: str) -> str:
    job["error"] = text
    return "failed"


def send(work: Work, chain: Chain, job: dict[str, Any], subscriber: Mapping[str, Any]) -> str:
    kind = job["type"]
    if kind == "in_app":
        return _in_app(work, chain, job, subscriber)
    if kind == "email":
        return _email(work, chain, job, subscriber)
    if kind == "sms":
        return _sms(work, chain, job, subscriber)
    if kind == "push":
        return _push(work, chain, job, subscriber)
    if kind == "chat":
        return _chat(work, chain, job, subscriber)
    return _tool(work, chain, job, subscriber)


def _template(job: Mapping[str, Any]) -> Mapping[str, Any]:
    template = job["step"].get("template")
    return template if isinstance(template, Mapping) else {}


def _in_app(work: Work, chain: Chain, job: dict[str, Any], subscriber: Mapping[str, Any]) -> str:
    if not work.integrations(str(job["_environmentId"]), "in_app"):
        work.detail(job, NO_INTEGRATION, "Failed")
        return _fail(job, NO_INTEGRATION)
    template = _template(job)
    content = _render(template.get("content") or chain.workflow.get("name") or "", job, subscriber)
    fields: dict[str, Any] = {
        "content": content,
        "deliveredAt": [work.stamp],
        "providerId": "novu",
    }
    if template.get("subject"):
        fields["subject"] = _render(template["subject"], job, subscriber)
    work.message(job, chain, fields)
    work.detail(job, "Message created", "Pending", provider_id="novu")
    work.detail(job, "Message sent", "Success", provider_id="novu")
    return "completed"


def _email(work: Work, chain: Chain, job: dict[str, Any], subscriber: Mapping[str, Any]) -> str:
    overrides = (job.get("overrides") or {}).get("email") or {}
    wanted = overrides.get("integrationIdentifier") if isinstance(overrides, Mapping) else None
    integration = _pick(work, job, "email", wanted)
    if integration is None:
        raw = {"integrationIdentifier": wanted} if wanted else None
        work.detail(job, NO_INTEGRATION, "Failed", raw)
        return _fail(job, NO_INTEGRATION)
    _selected(work, job, integration)
    to = (overrides.get("toRecipient") if isinstance(overrides, Mapping) else None) or (
        subscriber.get("email")
    )
    provider = str(integration.get("providerId", ""))
    template = _template(job)
    fields = {
        "subject": _render(template.get("subject") or chain.workflow.get("name"), job, subscriber),
        "content": _render(template.get("content") or "", job, subscriber),
        "email": to,
        "providerId": provider,
    }
    message = work.message(job, chain, fields)
    work.detail(job, "Message created", "Pending")
    if not to:
        _wanting(work, job, message, "mail_unexpected_error", EMAIL_WANTED)
        return "canceled"
    outcome = providers.send_email(
        provider, str(to), str(message["_id"]), work.stamp, int(work.now.timestamp())
    )
    message["identifier"] = outcome.raw["id"]
    work.save_message(message, insert=False)
    work.detail(job, "Message sent", "Success", outcome.raw)
    if _tracking(integration):
        work.later(job, outcome.reports)
    return "completed"


def _sms(work: Work, chain: Chain, job: dict[str, Any], subscriber: Mapping[str, Any]) -> str:
    overrides = (job.get("overrides") or {}).get("sms") or {}
    wanted = overrides.get("integrationIdentifier") if isinstance(overrides, Mapping) else None
    integration = _pick(work, job, "sms", wanted)
    if integration is None:
        work.detail(job, NO_INTEGRATION, "Failed")
        return _fail(job, NO_INTEGRATION)
    _selected(work, job, integration)
    phone = (job.get("payload") or {}).get("phone") or subscriber.get("phone")
    provider = str(integration.get("providerId", ""))
    content = _render(_template(job).get("content") or chain.workflow.get("name"), job, subscriber)
    message = work.message(job, chain, {"content": content, "phone": phone, "providerId": provider})
    work.detail(job, "Message created", "Pending")
    if not phone:
        _wanting(work, job, message, "no_subscriber_phone", PHONE_WANTED)
        return "canceled"
    outcome = providers.send_sms(provider, str(phone), str(message["_id"]), work.stamp)
    if not outcome.sent:
        message |= {
            "status": "error",
            "errorId": "unexpected_sms_error",
            "errorText": str(outcome.raw.get("message", "")),
        }
        work.save_message(message, insert=False)
        work.detail(job, PROVIDER_ERROR, "Failed", outcome.raw)
        return _fail(job, PROVIDER_ERROR)
    message["identifier"] = outcome.raw["id"]
    work.save_message(message, insert=False)
    work.detail(job, "Message sent", "Success", outcome.raw)
    return "completed"


def _entries(subscriber: Mapping[str, Any], family: frozenset[str]) -> list[Mapping[str, Any]]:
    channels = subscriber.get("channels")
    if not isinstance(channels, list):
        return []
    return [c for c in channels if isinstance(c, Mapping) and str(c.get("providerId")) in family]


def _entry_integration(
    work: Work, job: Mapping[str, Any], entry: Mapping[str, Any]
) -> dict[str, Any] | None:
    env = str(job["_environmentId"])
    if entry.get("_integrationId"):
        return work.integration(env, entry["_integrationId"])
    kind = str(job["type"])
    return next(
        (i for i in work.integrations(env, kind) if i.get("providerId") == entry.get("providerId")),
        None,
    )


def _push(work: Work, chain: Chain, job: dict[str, Any], subscriber: Mapping[str, Any]) -> str:
    entries = _entries(subscriber, PUSH_PROVIDERS)
    if not entries:
        work.detail(job, NO_CHANNEL, "Warning")
        return "canceled"
    sent = skipped = failed = False
    content = _render(_template(job).get("content") or chain.workflow.get("name"), job, subscriber)
    for entry in entries:
        provider = str(entry.get("providerId"))
        credentials = entry.get("credentials")
        tokens = credentials.get("deviceTokens") if isinstance(credentials, Mapping) else None
        integration = _entry_integration(work, job, entry)
        if tokens is None:
            work.detail(job, MISSING_TOKENS, "Failed", provider_id=provider)
            if integration is None:
                work.detail(job, NO_INTEGRATION, "Failed", provider_id=provider)
            skipped = True
            continue
        if integration is None:
            work.detail(job, NO_INTEGRATION, "Failed", provider_id=provider)
            failed = True
            continue
        _selected(work, job, integration)
        if not tokens:
            failed = True
            continue
        for token in [str(t) for t in tokens]:
            message = work.message(
                job, chain, {"content": content, "deviceTokens": [token], "providerId": provider}
            )
            work.detail(
                job,
                "Message created",
                "Pending",
                {"providerId": provider, "content": content},
                provider_id=provider,
            )
            outcome = providers.send_push(provider, token, str(message["_id"]), work.stamp)
            if outcome.sent:
                sent = True
                message["identifier"] = outcome.raw["id"]
                work.save_message(message, insert=False)
                work.detail(
                    job,
                    "Message sent",
                    "Success",
                    {"providerId": provider, "result": outcome.raw, "deviceToken": token},
                    provider_id=provider,
                )
            else:
                failed = True
                message |= {
                    "status": "error",
                    "errorId": "push_provider_error",
                    "errorText": str(outcome.raw.get("message", "")),
                }
                work.save_message(message, insert=False)
                work.detail(job, PROVIDER_ERROR, "Failed", outcome.raw, provider_id=provider)
    if sent:
        return "completed"
    if failed:
        work.detail(job, SOME_ERRORS, "Failed")
        return _fail(job, SOME_ERRORS)
    if skipped:
        work.detail(job, "Some push channels skipped to send the message", "Warning")
    return "canceled"


def _chat(work: Work, chain: Chain, job: dict[str, Any], subscriber: Mapping[str, Any]) -> str:
    entries = _entries(subscriber, CHAT_PROVIDERS)
    if not entries:
        text = NO_CHANNEL
        if job.get("contextKeys"):
            text = "Subscriber does not have a configured channel with the given context"
        work.detail(job, text, "Warning")
        return "canceled"
    sent = skipped = False
    content = _render(_template(job).get("content") or chain.workflow.get("name"), job, subscriber)
    payload = job.get("payload") or {}
    for entry in entries:
        provider = str(entry.get("providerId"))
        integration = _entry_integration(work, job, entry)
        if integration is None:
            work.detail(
                job,
                NO_INTEGRATION,
                "Failed",
                f"Integration with integrationId: {entry.get('_integrationId')} is either "
                "deleted or not active",
                provider_id=provider,
            )
            continue
        _selected(work, job, integration)
        credentials = entry.get("credentials")
        url = payload.get("webhookUrl") or (
            credentials.get("webhookUrl") if isinstance(credentials, Mapping) else None
        )
        message = work.message(
            job,
            chain,
            {"content": content, "directWebhookUrl": url, "providerId": provider},
        )
        work.detail(job, "Message created", "Pending")
        if not url:
            _wanting(work, job, message, "chat_webhook_url_missing", WEBHOOK_WANTED)
            skipped = True
            continue
        outcome = providers.send_chat(provider, str(url), str(message["_id"]), work.stamp)
        if outcome.sent:
            sent = True
            message["identifier"] = outcome.raw["id"]
            work.save_message(message, insert=False)
            work.detail(job, "Message sent", "Success", outcome.raw)
        else:
            message |= {
                "status": "error",
                "errorId": "unexpected_chat_error",
                "errorText": str(outcome.raw.get("message", "")),
            }
            work.save_message(message, insert=False)
            work.detail(job, PROVIDER_ERROR, "Failed", outcome.raw)
    if sent:
        return "completed"
    if skipped:
        work.detail(job, "Some chat channels skipped to send the message", "Warning")
        return "canceled"
    text = "All chat channels failed to send the message"
    work.detail(job, text, "Failed")
    return _fail(job, text)


def _tool(work: Work, chain: Chain, job: dict[str, Any], subscriber: Mapping[str, Any]) -> str:
    active = work.integrations(str(job["_environmentId"]), "tool")
    if not active:
        work.detail(job, NO_INTEGRATION, "Failed")
        return _fail(job, NO_INTEGRATION)
    integration = active[0]
    _selected(work, job, integration)
    content = _render(_template(job).get("content") or chain.workflow.get("name"), job, subscriber)
    message = work.message(
        job, chain, {"content": content, "providerId": integration.get("providerId")}
    )
    work.detail(job, "Message created", "Pending")
    outcome = providers.send_other(str(message["_id"]), work.stamp)
    message["identifier"] = outcome.raw["id"]
    work.save_message(message, insert=False)
    work.detail(job, "Message sent", "Success", outcome.raw)
    return "completed"


# A step canceled for want of the subscriber's address: the message's error text, then
# the detail production's worker writes.
EMAIL_WANTED = ("Subscriber does not have an email address", "Subscriber missing email address")
PHONE_WANTED = ("Subscriber does not have active phone", "Subscriber missing phone number")
WEBHOOK_WANTED = ("Webhook URL for the chat channel is missing",) * 2


def _wanting(
    work: Work,
    job: dict[str, Any],
    message: dict[str, Any],
    error_id: str,
    texts: tuple[str, str],
) -> None:
    """The message kept as a warning, and the failed detail, for a missing address."""
    message |= {"status": "warning", "errorId": error_id, "errorText": texts[0]}
    work.save_message(message, insert=False)
    work.detail(job, texts[1], "Failed")
