"""`python -m inboxdesk` runs the command line."""

from __future__ import annotations

import sys

from inboxdesk.entry import main

sys.exit(main())
