"""How far ahead a snooze may end, and how its end is said: one rule for the app's
snooze box and `inboxdesk snooze --until`."""

from __future__ import annotations

from datetime import datetime, timedelta

from inboxdesk.timeinput import TimeInputError, parse_when

# At least this far ahead: production answers 422 for an end that is not ahead.
AHEAD = timedelta(seconds=60)
# An end closer than AHEAD + MARGIN is moved out to it: the request, retried, may reach
# the service that much later, and an end under the minute there is refused.
MARGIN = timedelta(seconds=30)
# At most this far: production refuses a snooze past its plan's limit (402), which no
# document gives; a year lets every real snooze through and catches a typo (99999d).
MOST = timedelta(days=365)


def shown(moment: datetime) -> str:
    """A moment in the local time zone, with the year and the zone's name."""
    return moment.astimezone().strftime("%a %d %b %Y %H:%M %Z")


def snooze_end(typed: str, now: datetime) -> datetime:
    """The end a person typed (local time), between a minute and a year after `now`;
    at least AHEAD + MARGIN after it."""
    moment = parse_when(typed, now, future=True)
    if moment - now < AHEAD:
        raise TimeInputError(
            f"{shown(moment)} is not a minute ahead; a snooze must end at least a minute ahead."
        )
    if moment - now > MOST:
        raise TimeInputError(
            f"{shown(moment)} is more than {MOST.days} days ahead; "
            f"a snooze may end at most {MOST.days} days ahead."
        )
    return max(moment, now + AHEAD + MARGIN)


def end_text(end: datetime, now: datetime) -> str:
    """A snooze's end as a notice says it: "Tue 25 Nov 09:00 UTC", with the year
    ("Tue 25 Nov 2027 09:00 UTC") when it is not this year's."""
    year = " %Y" if end.year != now.astimezone(end.tzinfo).year else ""
    return end.strftime(f"%a %d %b{year} %H:%M ") + (end.tzname() or "")
