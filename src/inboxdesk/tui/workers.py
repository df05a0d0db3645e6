"""Workers for a screen's parts: objects the screen holds, which are not widgets."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.worker import Worker, WorkType


def start(
    node: DOMNode,
    work: Callable[[], Awaitable[None]],
    *,
    name: str,
    group: str,
    exclusive: bool = False,
) -> Worker[None]:
    """Run `work` as a worker of `node`, as Textual's `@work` runs a method.

    `work` is called when the worker starts, so one cancelled before it starts leaves no
    coroutine unawaited. A failure does not end the app: the node's `Worker.StateChanged`
    handler hands it to the App's one report.
    """
    return node.run_worker(
        cast("WorkType[None]", work),
        name=name,
        group=group,
        exclusive=exclusive,
        exit_on_error=False,
    )
