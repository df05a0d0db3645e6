"""How much the client takes from a service before it stops, so no answer can hang or sink it.

Each limit is a setting (`config.Settings`, built into the client by `config.connect`);
the client itself takes these plain values. Hitting one is a `LimitExceeded` (or, for the
deadline, `DeadlineExceeded`): one line that names the setting to raise.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from inboxdesk.client.errors import DeadlineExceeded, LimitExceeded, Looping

# The JSON parser's own ceilings (pydantic-core's jiter): a body within them is parsed
# with no scan of ours; a lower limit is checked by a scan first (client/parse.py).
PARSER_DEPTH = 200
PARSER_DIGITS = 4300


@dataclass(frozen=True)
class Limits:
    """The most the client accepts from one answer, and the longest a request may take."""

    # Bytes of one response body, decoded; reading stops past it (50 MB).
    max_body_bytes: int = 50_000_000
    # Seconds for one request from start to its last byte, retries and waits included.
    deadline: float = 60.0
    # Containers (arrays, objects) nested in a JSON body.
    max_json_depth: int = PARSER_DEPTH
    # Digits of one number in a JSON body.
    max_int_digits: int = PARSER_DIGITS
    # Pages one listing follows (`--all`, the app's end search, subscriber search).
    max_pages: int = 10_000
    # Pages of 50 a scan across every subscriber reads before it says "scanned N of more".
    scan_pages: int = 40

    def __post_init__(self) -> None:
        # Past its ceilings the parser refuses by itself: a looser limit would be a lie.
        if not (
            1 <= self.max_json_depth <= PARSER_DEPTH and 1 <= self.max_int_digits <= PARSER_DIGITS
        ):
            raise ValueError(
                f"max_json_depth must be 1 to {PARSER_DEPTH}, max_int_digits 1 to {PARSER_DIGITS}"
            )
        pages = min(self.max_pages, self.scan_pages)
        if self.max_body_bytes < 1 or self.deadline <= 0 or pages < 1:
            raise ValueError("max_body_bytes, deadline, max_pages and scan_pages must be above 0")


def body_too_large(limit: int, url: str) -> LimitExceeded:
    return LimitExceeded(
        f"The answer from {url} is larger than {limit / 1_000_000:g} MB; it was not read further.",
        "Is the base URL right? If so, raise max_body_mb (INBOXDESK_MAX_BODY_MB).",
        setting="max_body_mb",
    )


def too_deep(limit: int, what: str) -> LimitExceeded:
    return LimitExceeded(
        f"The service sent a {what} nested more than {limit} deep.",
        "Is the base URL right? The limit is max_json_depth (INBOXDESK_MAX_JSON_DEPTH).",
        setting="max_json_depth",
    )


def number_too_long(limit: int, what: str) -> LimitExceeded:
    return LimitExceeded(
        f"The service sent a {what} holding a number longer than {limit:,} digits.",
        "Is the base URL right? The limit is max_int_digits (INBOXDESK_MAX_INT_DIGITS).",
        setting="max_int_digits",
    )


def too_many_pages(limit: int, what: str) -> LimitExceeded:
    return LimitExceeded(
        f"The service still said more after {limit:,} pages of {what}; stopped there.",
        "Narrow the listing with filters, or raise max_pages (INBOXDESK_MAX_PAGES).",
        setting="max_pages",
    )


@dataclass
class Walk:
    """One listing followed page by page. `onward` is told each page after which the
    service says "more", and stops the walk (one clear line) at `most` pages, or at a
    service that loops: a cursor it gave before, or a page with no id not listed yet."""

    most: int
    what: str
    pages: int = 0
    _cursors: set[str] = field(default_factory=set)
    _ids: set[str] = field(default_factory=set)

    def onward(self, ids: Iterable[str | None], cursor: str | None = None) -> None:
        self.pages += 1
        fresh = {i for i in ids if i} - self._ids
        if not fresh:
            raise _looping(self.what, self.pages, "a page held no message not listed already")
        self._ids |= fresh
        if cursor is not None:
            if cursor in self._cursors:
                raise _looping(self.what, self.pages, "it gave a cursor it had given before")
            self._cursors.add(cursor)
        if self.pages >= self.most:
            raise too_many_pages(self.most, self.what)


def _looping(what: str, pages: int, why: str) -> Looping:
    return Looping(
        f"The service kept saying there was more of {what}, but {why}; stopped after "
        f"{pages:,} page{'s' if pages != 1 else ''}.",
        "It is not paging as the API says: try again later, or report it to the service.",
    )


def past_deadline(limit: float, url: str) -> DeadlineExceeded:
    return DeadlineExceeded(
        f"{url} did not finish answering within {limit:g} s.",
        "The service is too slow or stalled; try again later, or raise deadline "
        "(INBOXDESK_DEADLINE).",
    )
