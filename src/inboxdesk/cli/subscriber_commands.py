"""`inboxdesk subscriber`, `set-subscriber` and `credentials`: a subscriber's own data,
shown with every secret masked, and fixed with one undoable write that does not ask.
Secrets come from standard input, never from the arguments."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from inboxdesk.cli.api_commands import _call, _emit, _write_call, json_option
from inboxdesk.cli.connection import Flags, connection_options
from inboxdesk.client import InboxClient
from inboxdesk.models.subscriber_edit import (
    CHAT_OR_PUSH,
    CHAT_PROVIDERS,
    FIELDS,
    PUSH_PROVIDERS,
    check_fields,
    masked_credentials,
    needs,
)
from inboxdesk.text import safe

# `subscriber` (a read) imports none of the write machinery: each change imports it as
# it runs (api_commands says why).
if TYPE_CHECKING:
    from inboxdesk.writes import Outbox

# Exit status of a change refused before it is sent (bad input): nothing changed.
BAD_INPUT = 2
SHOWN = ("subscriberId", "firstName", "lastName", "email", "phone", "locale", "timezone")
READ_ONLY = ("isOnline", "lastOnlineAt", "createdAt", "updatedAt")


def _document(client_subscriber: Any) -> dict[str, Any]:
    """The subscriber as shown: every field, each integration's credentials masked, and
    which channel would fail for want of which field."""
    wire = client_subscriber.model_dump(by_alias=True, exclude_none=False)
    channels = [
        {
            "providerId": c.get("providerId"),
            "_integrationId": c.get("_integrationId"),
            "credentials": masked_credentials(
                {k: v for k, v in (c.get("credentials") or {}).items() if v is not None}
            ),
        }
        for c in wire.get("channels") or []
    ]
    shown = {name: wire.get(name) for name in (*SHOWN, "avatar", "data", *READ_ONLY)}
    shown["channels"] = channels
    shown["needs"] = [
        {"channel": n.channel, "field": n.field, "words": n.words} for n in needs(wire)
    ]
    return shown


def _print(doc: dict[str, Any]) -> None:
    for name in (*SHOWN, "avatar", *READ_ONLY):
        value = doc.get(name)
        print(f"{name:>13}: {'(none)' if value is None else safe(str(value), newlines=False)}")
    data = doc.get("data")
    print(f"{'data':>13}: {'(none)' if data is None else safe(json.dumps(data), newlines=False)}")
    if not doc["channels"]:
        print(f"{'credentials':>13}: (none)")
    for entry in doc["channels"]:
        credentials = entry["credentials"]
        parts = [f"{k}={v}" for k, v in credentials.items() if v not in (None, [])]
        if "deviceTokens" in credentials and not credentials["deviceTokens"]:
            parts.append("deviceTokens=(none)")
        print(
            f"{'credentials':>13}: {safe(str(entry['providerId']), newlines=False)} "
            f"(integration {safe(str(entry['_integrationId']), newlines=False)}): "
            + safe(", ".join(parts) or "(empty)", newlines=False)
        )
    for need in doc["needs"]:
        print(f"{'would fail':>13}: {need['words']}")


@click.command("subscriber")
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@json_option
@connection_options
def subscriber(flags: Flags, subscriber_id: str, as_json: bool) -> int:
    """A subscriber's own data: every field, each integration's credentials masked, and
    which channel would fail for want of which field."""

    async def work(client: InboxClient) -> int:
        doc = _document(await client.get_subscriber(subscriber_id))
        if as_json:
            _emit(doc)
        else:
            _print(doc)
        return 0

    return _call(flags, work, subscriber_id)


def _data(text: str) -> Any:
    """--data's JSON, or @FILE's."""
    if text.startswith("@"):
        try:
            text = Path(text[1:]).read_text(encoding="utf-8")
        except OSError as exc:
            raise click.BadParameter(f"cannot read {text[1:]}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except ValueError:
        raise click.BadParameter("not JSON") from None


@click.command("set-subscriber")
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.option("--email", metavar="E")
@click.option("--phone", metavar="P", help="E.164, such as +14155550100")
@click.option("--first-name", metavar="NAME")
@click.option("--last-name", metavar="NAME")
@click.option("--avatar", metavar="URL")
@click.option("--locale", metavar="L", help="such as en or en-US")
@click.option("--timezone", metavar="TZ", help="an IANA zone, such as Europe/Paris")
@click.option("--data", "data_text", metavar="JSON|@FILE", help="replaces data whole")
@click.option(
    "--unset",
    multiple=True,
    type=click.Choice(list(FIELDS.values())),
    help="clear a field (repeatable); the service refuses an empty email, locale or timezone",
)
@json_option
@connection_options
def set_subscriber(
    flags: Flags,
    subscriber_id: str,
    email: str | None,
    phone: str | None,
    first_name: str | None,
    last_name: str | None,
    avatar: str | None,
    locale: str | None,
    timezone: str | None,
    data_text: str | None,
    unset: tuple[str, ...],
    as_json: bool,
) -> int:
    """Change a subscriber's fields: only those named are sent. One undoable change
    (`inboxdesk undo`); it reaches steps not yet run, never a job already failed."""
    given: dict[str, Any] = {
        "email": email,
        "phone": phone,
        "firstName": first_name,
        "lastName": last_name,
        "avatar": avatar,
        "locale": locale,
        "timezone": timezone,
    }
    fields = {k: v for k, v in given.items() if v is not None}
    if data_text is not None:
        fields["data"] = _data(data_text)
    wire_of = {option: name for name, option in FIELDS.items()}
    for option in unset:
        name = wire_of[option]
        if name in fields:
            raise click.UsageError(f"--{option} and --unset {option} together: choose one.")
        fields[name] = None
    if not fields:
        raise click.UsageError("Name at least one field to change (or --unset FIELD).")
    checked = check_fields(fields)
    if checked.refusals:
        for refusal in checked.refusals:
            print(f"inboxdesk: {refusal}", file=sys.stderr)
        print("inboxdesk: nothing was sent.", file=sys.stderr)
        return BAD_INPUT
    for warning in checked.warnings:
        print(f"inboxdesk: warning: {warning}", file=sys.stderr)

    async def work(client: InboxClient, outbox: Outbox) -> int:
        from inboxdesk.cli.writing import send
        from inboxdesk.writes import describe
        from inboxdesk.writes.kinds.subscriber import changed, subscriber_write, values_of

        current = values_of(await client.get_subscriber(subscriber_id))
        wanted = changed(current, fields)
        if not wanted:
            print("Nothing to change: every field named already has that value.")
            return 0
        write = subscriber_write(subscriber_id, wanted, current)
        event = await send(outbox, write)
        after = (event.result.values or {}).get("fields", {})
        if as_json:
            _emit({"id": write.id, "what": describe(write), "after": after})
            return 0
        print(f"{safe(describe(write), newlines=False)}.")
        print(f"Undo: inboxdesk undo {write.id[:10]}")
        return 0

    return _write_call(flags, work, subscriber_id)


def _secret(what: str) -> str:
    """One secret from standard input: typed without echo on a terminal, else piped."""
    if sys.stdin.isatty():
        import getpass

        return getpass.getpass(f"{what} (not shown): ").strip()
    return sys.stdin.read().strip()


@click.command("credentials")
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.option("--provider", required=True, metavar="P", help="fcm, apns, slack, …")
@click.option("--add-token", metavar="-", help="add a device token read from standard input")
@click.option("--remove-token", metavar="-", help="remove a device token read from stdin")
@click.option("--webhook-url", metavar="-", help="set the chat webhook URL read from stdin")
@click.option("--remove", is_flag=True, help="remove every entry of the provider")
@json_option
@connection_options
def credentials(
    flags: Flags,
    subscriber_id: str,
    provider: str,
    add_token: str | None,
    remove_token: str | None,
    webhook_url: str | None,
    remove: bool,
    as_json: bool,
) -> int:
    """Add or remove a device token, set a webhook URL, or remove a provider's
    credentials. The token or URL is read from standard input (`-`), never from the
    arguments. Other tokens are kept: the whole list is sent. One undoable change."""
    actions = {
        "add-token": add_token,
        "remove-token": remove_token,
        "webhook-url": webhook_url,
    }
    chosen = [k for k, v in actions.items() if v is not None] + (["remove"] if remove else [])
    if len(chosen) != 1:
        raise click.UsageError(
            "Choose one of --add-token -, --remove-token -, --webhook-url - or --remove."
        )
    what = chosen[0]
    if what != "remove" and actions[what] != "-":
        # The value is not repeated: it may be a secret typed where it should not be.
        raise click.UsageError(
            f"--{what} takes - and reads the value from standard input, never from the "
            "command line (where shell history and process lists keep it)."
        )
    name = safe(provider, newlines=False)
    if provider not in CHAT_OR_PUSH:
        raise click.UsageError(f"{name} is not a chat or push provider.")
    if what.endswith("token") and provider not in PUSH_PROVIDERS:
        raise click.UsageError(f"{name} is a chat provider: it takes --webhook-url, not tokens.")
    if what == "webhook-url" and provider not in CHAT_PROVIDERS:
        raise click.UsageError(f"{name} is a push provider: it takes tokens, not a webhook URL.")

    async def work(client: InboxClient, outbox: Outbox) -> int:
        from inboxdesk.cli.writing import send
        from inboxdesk.writes import describe
        from inboxdesk.writes.kinds.credentials import credentials_write, removal_write

        # Read only now: a read-only run has refused before anything was asked.
        secret = ""
        if what != "remove":
            secret = _secret("Webhook URL" if what == "webhook-url" else "Device token")
        current = await client.get_subscriber(subscriber_id)
        if what == "remove":
            write = removal_write(current, provider)
        else:
            write = credentials_write(current, provider, what, secret)
        if isinstance(write, str):
            print(f"inboxdesk: {write} Nothing was sent.", file=sys.stderr)
            return BAD_INPUT
        await send(outbox, write)
        if as_json:
            _emit({"id": write.id, "what": describe(write)})
            return 0
        print(f"{safe(describe(write), newlines=False)}.")
        print(f"Undo: inboxdesk undo {write.id[:10]}")
        return 0

    return _write_call(flags, work, subscriber_id)


COMMANDS = [subscriber, set_subscriber, credentials]
