"""The meaning of a provider's code beside its own words (decision 94), for the timeline
and `inboxdesk delivery`: the code is read by the core's parser (codes.py), the same
reading that groups failures, and looked up in the advice table (advice.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from inboxdesk.core.delivery.advice import Advice, advice
from inboxdesk.core.delivery.codes import ProviderCode, provider_code

if TYPE_CHECKING:
    from inboxdesk.models.delivery import ActivityJob


def _readings(found: ProviderCode, channel: str) -> Iterator[tuple[str, str]]:
    """(family, code) pairs to look up, the most telling first."""
    if found.event:
        yield found.family, found.event
    if found.code:
        yield found.family, found.code
        # A mail server's status reads the same whichever provider relayed it; only an
        # email's, so that a number in an SMS error is not taken for one.
        if channel == "email" and found.family != "smtp":
            yield "smtp", found.code


def advice_of(job: ActivityJob) -> Advice | None:
    """The table's row for the first code a job's details carry that it lists."""
    for detail in job.execution_details:
        if not detail.raw:
            continue
        found = provider_code(job.provider_id or detail.provider_id, detail.raw)
        for family, code in _readings(found, str(job.type)):
            if (row := advice(family, code)) is not None:
                return row
    return None
