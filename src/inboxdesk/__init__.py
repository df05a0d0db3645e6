"""inboxdesk: a terminal app, client and local service for a notification service's inbox."""

from __future__ import annotations

import sys

__version__ = "0.1.0"

# httpx imports its own command-line client at import time whenever click and rich are
# installed (they are: ours uses click, the app rich), and with it pygments: 25 ms and
# 3 MiB of a start-up that never runs it. Marked absent, httpx keeps a stub
# `httpx.main` instead. Only if httpx is not imported yet.
if "httpx" not in sys.modules:
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
