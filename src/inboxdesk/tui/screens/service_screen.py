"""What the two views share: the app that owns the client, and a cheap footer refresh."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

if TYPE_CHECKING:
    from inboxdesk.tui.app import InboxdeskApp


class ServiceScreen(Screen[None]):
    """A view whose keys call the service through the app's client."""

    _shown: tuple[object, ...] | None = None

    @property
    def inbox_app(self) -> InboxdeskApp:
        from inboxdesk.tui.app import InboxdeskApp

        assert isinstance(self.app, InboxdeskApp)
        return self.app

    def availability(self) -> tuple[object, ...]:
        """Everything check_action's answers depend on."""
        return ()

    def sync_bindings(self) -> None:
        """Refresh the footer only when what check_action answers has changed.

        Redrawing the footer is costly, and most key presses change nothing it shows.
        """
        now = self.availability()
        if now != self._shown:
            self._shown = now
            self.refresh_bindings()
