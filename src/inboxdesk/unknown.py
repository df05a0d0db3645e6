"""An unknown subscriber, said one way by every command and view.

Routes answer an unknown subscriber differently (404s in several wordings, a 400, and
the activity feed an empty page), so none of their answers is read: the subscriber read
(`GET /v2/subscribers/{id}`, the client's `get_subscriber`) decides by its status, asked
once, only on the path where something was not found.
"""

from __future__ import annotations

from inboxdesk.client import ApiError, InboxClient, NotFoundError
from inboxdesk.text import clip


class UnknownSubscriber(NotFoundError):
    """The subscriber read answered 404: no such subscriber in the key's environment."""


def unknown_subscriber(subscriber_id: str, environment: str | None = None) -> str:
    """The one sentence: which subscriber, and where it was looked for."""
    where = f"in {clip(environment, 40)}" if environment else "in this environment"
    return f"Subscriber {clip(subscriber_id, 80)!r} was not found {where}."


# What to do about it, the same everywhere.
HINT = (
    "Check the id (a subscriberId, not a name or an email): `inboxdesk subscribers "
    "--email EMAIL` finds one; --environment NAME looks in another environment."
)


def unknown_error(subscriber_id: str, environment: str | None = None) -> UnknownSubscriber:
    return UnknownSubscriber(
        404,
        unknown_subscriber(subscriber_id, environment),
        hint=HINT,
        path=f"/v2/subscribers/{subscriber_id}",
    )


async def check_known(
    client: InboxClient, subscriber_id: str, environment: str | None = None
) -> None:
    """Raises UnknownSubscriber when the subscriber read answers 404; other errors are
    the read's own."""
    try:
        await client.get_subscriber(subscriber_id)
    except NotFoundError:
        raise unknown_error(subscriber_id, environment) from None


async def explained(
    client: InboxClient, subscriber_id: str, error: ApiError, environment: str | None = None
) -> ApiError:
    """The error to report for a 404 or 400 met on a subscriber's route: UnknownSubscriber
    when the subscriber read says so, else `error` itself (a message or route not found,
    a request refused for another reason)."""
    if isinstance(error, UnknownSubscriber):
        return unknown_error(subscriber_id, environment)  # found out earlier: named now
    try:
        await check_known(client, subscriber_id, environment)
    except UnknownSubscriber as unknown:
        return unknown
    except Exception:
        return error
    return error
