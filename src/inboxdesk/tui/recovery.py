"""What the app does when a request fails: tell the user what failed and what to do,
and find an unreachable service again.

Until the service has answered once, any failure is a start-up problem: one screen
says it, and `r` retries. After that, a notice says what failed and what to do. An
unreachable service is said once and probed every few seconds until any HTTP answer
comes; then the App's `offline` turns false, the views refresh themselves (they watch
it) and the queued writes go out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from inboxdesk.client import InboxClient, InboxdeskError, TransportError
from inboxdesk.tui.error_titles import error_title
from inboxdesk.tui.screens.problem import ProblemScreen


class Recovery:
    def __init__(
        self,
        app: App[Any],
        client: Callable[[], InboxClient],
        set_offline: Callable[[bool], None],
        probe_seconds: Callable[[], float],
    ) -> None:
        self.app = app
        self.client = client
        self.set_offline = set_offline
        self.probe_seconds = probe_seconds
        # Until the service has answered once, a failure is a start-up problem.
        self.connected = False
        self.problem_open = False
        self.away = False
        self._probe: Timer | None = None

    def report(self, error: InboxdeskError) -> None:
        """Tell the user what failed and what to do; an unreachable service is probed."""
        if not self.connected:
            # Nothing shown yet: any failure is a start-up problem, which `r` retries.
            self.startup_failed(error)
            return
        if isinstance(error, TransportError):
            self.went_away(error.message)
            return
        self.app.notify(
            f"{error.message}\n{error.hint}".strip(),
            title=error_title(error),
            severity="error",
            timeout=8,
            markup=False,
        )

    def startup_failed(self, error: InboxdeskError) -> None:
        # Several first requests fail together; one problem screen says it.
        if self.problem_open:
            return
        self.problem_open = True
        self.app.push_screen(ProblemScreen(error_title(error, True), error.message, error.hint))

    def went_away(self, why: str) -> None:
        """The service is unreachable: say so once, and probe until it is back."""
        if self.away:
            return
        self.away = True
        self.set_offline(True)
        seconds = self.probe_seconds()
        self.app.notify(
            f"{why} Retrying every {seconds:g} s. Marks pressed "
            "meanwhile are queued and sent, in order, when it is back.",
            title="Service unreachable",
            severity="error",
            timeout=8,
            markup=False,
        )
        self._probe = self.app.set_interval(seconds, self.probe)

    def worker_failed(self, event: Worker.StateChanged) -> None:
        """Every worker's failure: the service's errors say what to do, anything else is
        a bug, reported rather than a crash (exit_on_error is off)."""
        if event.state != WorkerState.ERROR or event.worker.error is None:
            return
        error = event.worker.error
        if isinstance(error, InboxdeskError):
            self.report(error)
        else:
            self.app.notify(
                f"Unexpected error in {event.worker.name or 'a task'}: {error!r}. "
                "The app carries on; please report this.",
                title="Bug",
                severity="error",
                timeout=10,
                markup=False,
            )

    def probe(self) -> None:
        self.app.run_worker(self._probe_once(), group="probe", exclusive=True, exit_on_error=False)

    async def _probe_once(self) -> None:
        try:
            await self.client().search_subscribers(limit=1)
        except TransportError:
            return  # still away
        except InboxdeskError:
            pass  # any HTTP answer: the service is up (its error is the view's to say)
        if self._probe is not None:
            self._probe.stop()
            self._probe = None
        self.app.notify("The service is back; refreshing.", title="Connected")
        # The views watch `offline` and refresh themselves; the queued writes go out.
        self.away = False
        self.set_offline(False)
