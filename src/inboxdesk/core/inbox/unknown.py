"""An unknown subscriber, said one way by every command and view.

Routes answer an unknown subscriber differently (404s in several wordings, a 400, and
the activity feed an empty page), so none of their answers is read: the subscriber read
(`GET /v2/subscribers/{id}`, the client's `get_subscriber`) decides by its status, asked
once, only on the path where something was not found.
"""

from __future__ import annotations

from inboxdesk.client import ApiError, InboxClient, NotFoundError, SubscriberNotFound
from inboxdesk.client.inbox import UNKNOWN_SUBSCRIBER_HINT
from inboxdesk.client.inbox import unknown_subscriber as subscriber_not_found

# The client raises it when the v2 inbox's 404 is an unknown subscriber: one error, one line.
UnknownSubscriber = SubscriberNotFound
HINT = UNKNOWN_SUBSCRIBER_HINT


def unknown_subscriber(subscriber_id: str, environment: str | None = None) -> str:
    """The one sentence: which subscriber, and where it was looked for."""
    return unknown_error(subscriber_id, environment).message


def unknown_error(subscriber_id: str, environment: str | None = None) -> UnknownSubscriber:
    return subscriber_not_found(subscriber_id, environment=environment)


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
