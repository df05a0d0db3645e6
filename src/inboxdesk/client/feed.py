"""The activity feed across every subscriber of the environment: production's filters,
its paging (1 to 50, `hasMore`, no total) and a scan bounded by `scan_pages`.

Production's feed takes every filter without `subscriberIds`. Two are kept here as well
as sent: `topicKey` (a service that does not know it would answer everything) and a
workflow given by name or trigger identifier rather than `_id` (the feed takes `_id`s
only). "Failed" is no filter of production's: the scan keeps what the cause module
says did not arrive. A bounded scan says so ("scanned 2,000 of more"), never passing
for everything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from inboxdesk.client.activity import MAX_PAGE, ActivityFilter, ActivityPage
from inboxdesk.client.errors import ApiError, ProtocolError, ValidationError
from inboxdesk.delivery import has_failed, of_channels
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.models.ids import is_object_id
from inboxdesk.text import plural

if TYPE_CHECKING:
    from inboxdesk.client.api import InboxClient

SEVERITIES = ("high", "medium", "low", "none")


@dataclass(frozen=True)
class FeedFilter(ActivityFilter):
    """The feed's filters across subscribers; lists are "any of these" (empty: all).

    `context_keys` None is any context, an empty tuple "no context" (production's
    `contextKeys=`). `workflows` (inherited) are `_id`s, sent; `workflow_names` are
    names or trigger identifiers, matched here.
    """

    emails: Sequence[str] = ()
    severity: Sequence[str] = ()
    context_keys: Sequence[str] | None = None
    topic_key: str | None = None
    workflow_names: Sequence[str] = ()
    failed: bool = False

    def params(self) -> list[tuple[str, str]]:
        out = super().params()
        out += [("emails", v) for v in self.emails]
        out += [("severity", v) for v in self.severity]
        if self.context_keys is not None:
            out += [("contextKeys", v) for v in self.context_keys] or [("contextKeys", "")]
        if self.topic_key:
            out.append(("topicKey", self.topic_key))
        return out

    def keeps(self, item: ActivityNotification) -> bool:
        """Whether the item passes what the service is not trusted with: the failed
        filter (on the channels asked for), a topic, a workflow by name."""
        if self.failed and not has_failed(of_channels(item, self.channels)):
            return False
        if self.topic_key and not any(
            isinstance(t, dict) and t.get("topicKey") == self.topic_key for t in item.topics or ()
        ):
            return False
        if self.workflow_names:
            template = item.template
            names = (
                {template.name.casefold(), template.identifier.casefold()} if template else set()
            )
            if not names & {w.casefold() for w in self.workflow_names}:
                return False
        return True


def feed_filter(
    *,
    workflows: Sequence[str] = (),
    **given: Any,
) -> FeedFilter:
    """A filter whose workflows may be `_id`s (sent) or names and identifiers (matched)."""
    ids = [w.lower() for w in workflows if is_object_id(w.lower())]
    names = [w for w in workflows if not is_object_id(w.lower())]
    return FeedFilter(workflows=ids, workflow_names=names, **given)


class BeyondRetention(ApiError):
    """402: the window reaches further back than the plan keeps the activity feed."""


@dataclass
class FeedScan:
    """What a scan kept, how much it read, and whether the bound stopped it."""

    found: list[ActivityNotification] = field(default_factory=list)
    scanned: int = 0
    pages: int = 0
    # The bound stopped it with more to read: never to be shown as everything.
    bounded: bool = False

    def summary(self) -> str:
        """`scanned 2,000 of more: narrow the window`, or `scanned 340 (all)`."""
        if self.bounded:
            return f"scanned {self.scanned:,} of more: narrow the window or the filters"
        return f"scanned {self.scanned:,} (all)"

    def kept(self, what: str = "notification") -> str:
        return f"{plural(len(self.found), what)}, {self.summary()}"


async def feed_page(
    client: InboxClient, wanted: FeedFilter, page: int = 0, limit: int = MAX_PAGE
) -> ActivityPage:
    """One page of the feed as production pages it; a 402 and a 422 said in words."""
    if not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"a page of the activity feed holds 1 to {MAX_PAGE}, not {limit}")
    try:
        return await client.activity(wanted, page, limit)
    except ValidationError as error:
        raise ValidationError(
            error.status,
            error.message,
            error.fields,
            hint="Check the filters: channels are in_app, email, sms, chat, push or tool; "
            f"severity is {', '.join(SEVERITIES)}; a workflow is its name or _id.",
            body=error.body,
            path=error.path,
        ) from error
    except ApiError as error:
        if error.status != 402:
            raise
        since = f" back to {wanted.after}" if wanted.after else ""
        raise BeyondRetention(
            402,
            f"The plan does not keep the activity feed{since}: the window is older than its "
            "retention (the service said: " + error.message.rstrip(".") + ").",
            hint="Narrow the window (--since 24h, or 7d on a plan that keeps a week), "
            "or upgrade the plan.",
            body=error.body,
            path=error.path,
        ) from error


async def scan_feed(
    client: InboxClient,
    wanted: FeedFilter,
    scan_pages: int | None = None,
    on_page: Callable[[list[ActivityNotification], FeedScan], Any] | None = None,
    limit: int | None = None,
    start: int = 0,
) -> FeedScan:
    """Pages of 50 from `start`, newest first, keeping what `wanted.keeps`, until the feed ends, the
    page on which `limit` were kept, or `scan_pages` pages (the setting by default);
    `on_page` hears each page's kept items and the scan so far, so groups and a
    progress line grow as pages arrive."""
    most = scan_pages if scan_pages is not None else client.options.limits.scan_pages
    if most < 1:
        raise ValueError("scan_pages must be at least 1")
    scan = FeedScan()
    previous: list[str] | None = None
    for n in range(most):
        page = start + n
        result = await feed_page(client, wanted, page, MAX_PAGE)
        ids = [n.id for n in result.data]
        if ids and ids == previous:
            raise ProtocolError(
                f"The service sent page {page} of the activity feed again, the same as "
                f"page {page - 1}: stopped after {plural(n, 'page')}.",
                "Its paging is broken; narrow the window or the filters and try again.",
            )
        previous = ids
        kept = [n for n in result.data if wanted.keeps(n)]
        scan.found += kept
        scan.scanned += len(result.data)
        scan.pages = n + 1
        if on_page is not None:
            on_page(kept, scan)
        if not result.has_more or not result.data:
            return scan
        if limit is not None and len(scan.found) >= limit:
            # Stopped early on purpose: there is more, and it was not read.
            scan.bounded = True
            return scan
    scan.bounded = True
    return scan
