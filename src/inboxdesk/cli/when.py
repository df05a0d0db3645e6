"""`--since` of the command line's listings (history, activity): a time as the app reads
one, or a usage error. Its own module: a read that takes it imports no write machinery."""

from __future__ import annotations

from datetime import datetime

import click

from inboxdesk.timeinput import TimeInputError, local_now, parse_when


def since(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        return parse_when(text, local_now(), future=False)
    except TimeInputError as exc:
        raise click.BadParameter(str(exc), param_hint="--since") from None
