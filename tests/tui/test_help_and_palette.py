"""Finding things: help, footer and palette follow the keymap; values read as JSON.

Through Pilot against the real service: the app opens as the settings say (theme,
keymap); a key moved by the keymap shows where it is now, help groups the app's keys
apart from Textual's and says how to close it, the palette lists each command once and
finds it by its words, and the detail panes spell values as JSON (`true`, not `True`).
The footer at each width: tests/tui/test_layout.py (its rule) and test_snapshots.py (laid out).
"""

from __future__ import annotations

import copy
import io
import re
from dataclasses import astuple
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any

import httpx
import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static

from inboxdesk.client import InboxClient
from inboxdesk.core.inbox.feed import PAGE_SIZE
from inboxdesk.server.fixtures import read_fixture
from inboxdesk.tui.inbox.detail import render_message
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import MessageTable
from inboxdesk.tui.integrations.screen import IntegrationsScreen
from inboxdesk.tui.integrations.table import IntegrationTable
from inboxdesk.tui.screens.help import GENERIC, HelpScreen, key_lines
from inboxdesk.tui.screens.picker import SubscriberPicker
from inboxdesk.tui.widgets.app_footer import AppFooter, Key, Placed
from tests.client.faults import FaultTransport
from tests.conftest import (
    EXAMPLE,
    MAILGUN,
    SENDGRID,
    STAGING_KEY,
    ServiceFactory,
    jane_message,
)
from tests.tui.conftest import (
    ORG_WIDE,
    SIZE,
    Notices,
    app_for,
    footer_line,
    plain,
    settled,
    until,
    view_listing,
)
from tests.tui.test_inbox import mark_posts, opened, stored
from tests.tui.test_integrations import go_to

APP_ID = re.compile(r"\b(inbox|integrations|list|view|app|help)\.[a-z_]+")


def lines(static: Widget) -> list[str]:
    return [" ".join(line.split()) for line in plain(static).splitlines()]


def footer_keys(screen: Widget) -> list[tuple[str, str]]:
    """(key, description) of each key the footer draws, left to right, the palette's last."""
    return [(p.key.key, p.key.description) for p in screen.query_one(AppFooter).shown]


async def click_key(pilot: Pilot[None], screen: Screen[object], description: str) -> Placed:
    """Click the middle of the footer's key that says `description`; that key."""
    footer = screen.query_one(AppFooter)
    placed = next(p for p in footer.shown if p.key.description == description)
    await pilot.click(footer, offset=(placed.x + placed.width // 2, 0))
    return placed


async def help_of(pilot: Pilot[None], everything: list[str] | None = None) -> list[str]:
    """Help's lines of keys, opened by a click on the footer's `?` (as Textual's footer
    key runs its key on a mouse down); `everything` gets the text of all its parts."""
    await click_key(pilot, pilot.app.screen, "Help")
    await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), what="help")
    keys = lines(pilot.app.screen.query_one("#help-keys", Static))
    if everything is not None:
        everything += [plain(w) for w in pilot.app.screen.query(Static)]
    title = plain(pilot.app.screen.query_one("#help-title", Static))
    assert "Esc" in title and "closes" in title
    await pilot.press("escape")
    await until(pilot, lambda: not isinstance(pilot.app.screen, HelpScreen), what="help closed")
    return keys


def help_lines(screen: Screen[object]) -> list[str]:
    """Help's lines of keys over `screen`, as `help_of` reads them drawn: each group's
    title, then a line per binding (its keys, what it does, its id, its note)."""
    return [
        line
        if isinstance(line, str)
        else " ".join(" ".join(part for part in astuple(line) if part).split())
        for line in key_lines(screen)
    ]


async def palette(pilot: Pilot[None], query: str, opened: bool = False) -> list[str]:
    """The first line of every entry the palette shows for `query`, typed into it as it
    opens or (`opened`) into the palette already open."""
    if not opened:
        await pilot.press("ctrl+p")
        await until(pilot, lambda: bool(pilot.app.screen.query("CommandList")), what="palette")
    options = pilot.app.screen.query_one("CommandList", OptionList)
    if query:
        await pilot.press(*query)
    await until(pilot, lambda: options.option_count > 0, what=f"palette entries for {query!r}")
    await settled(pilot)  # the palette gathers hits in a worker; let it finish
    prompts = [options.get_option_at_index(n).prompt for n in range(options.option_count)]
    return [str(getattr(p, "plain", p)).split("\n")[0] for p in prompts]


@pytest.mark.slow
async def test_the_app_opens_as_the_settings_say_and_help_footer_and_palette_follow(
    make_service: ServiceFactory, transport: FaultTransport, notices: Notices
) -> None:
    """One walk, inbox then integrations, in the settings' theme with keys remapped by
    the config's keymap (an unknown binding id is said): the inbox opens with the first
    page the app asked for (asked once); help lists every key with its binding id, each
    where the keymap put it, and groups the app's keys apart from Textual's, per view;
    keys are handled in order; the palette lists each command once and finds it by its
    words, and its subscriber entry opens the picker, which opens another inbox by a
    typed id; the footer shows the remapped key; the detail panes spell values as
    JSON."""
    # Credentials as an older deployment sends them (production omits them for API keys).
    service = make_service(fixture=_with_json_values(), send_credentials=True, **ORG_WIDE)
    keymap = {"inbox.mark_read": "x", "integrations.set_primary": "m", "no.such.binding": "y"}
    app = app_for(service, transport=transport, theme="nord", keymap=keymap)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        await settled(pilot)
        assert len(first_pages(transport)) == 1, "asked for once, before the inbox opened"
        assert app.theme == "nord"
        assert notices.saying("no.such.binding")
        # A feed item carries only the workflow's id and tags, as production's feed
        # does; a full Message (from /v1/messages or mark-as) carries its steps.
        assert "Collect (digest)" not in plain(screen.query_one("#message-body"))
        everything: list[str] = []
        inbox = await help_of(pilot, everything)
        # What help draws (under its header row, a long line wrapped) is what help_lines
        # reads, where other walks check help without opening it.
        drawn, read = " ".join(inbox[1:]).split(), " ".join(help_lines(screen)).split()
        assert inbox[0].split() == ["Key", "Does", "Binding", "id", "Note"] and drawn == read
        assert any(line.startswith("x Read inbox.mark_read") for line in inbox), inbox
        assert not any(line.startswith("r Read") for line in inbox)
        text = " ".join(everything)
        for binding_id in ("inbox.mark_read", "inbox.mark_unseen", "inbox.undo", "app.help"):
            assert binding_id in text
        assert "(not available now)" in text, "undo is listed as unavailable"

        # Keys are handled in order: once x's mark is done, r's would have been sent.
        await pilot.press("r", "x")
        await until(pilot, lambda: stored(service, jane_message(11)) == (True, True))
        await until(pilot, lambda: notices.saying("Marked 1 message read."))
        assert len(mark_posts(transport)) == 1, "r no longer marks read"

        commands = await palette(pilot, "")
        assert len(commands) == len(set(commands)), commands
        assert {"Read", "Integrations view", "Theme", "Quit"} <= set(commands)
        found = await palette(pilot, "subscr", opened=True)
        assert found and "ubscriber" in found[0], found
        assert any(name.startswith("Open inbox: ") for name in found), "by the help's words too"
        await pilot.press("enter")
        await until(
            pilot,
            lambda: isinstance(app.screen, SubscriberPicker) and bool(app.screen.query(Input)),
            what="the picker",
        )
        await until(pilot, lambda: isinstance(app.screen.focused, Input), what="picker focus")
        await pilot.press(*"joe", "enter")
        await until(
            pilot,
            lambda: screen.subscriber_id == "joe" and screen.query_one(MessageTable).row_count == 3,
        )

        shown = await view_listing(
            pilot, "2", IntegrationsScreen, IntegrationTable, 10, "the integrations"
        )
        # Help over this view lists what `key_lines` gives (help opened and drawn: the
        # inbox's above, the same screen on another view's keys).
        integration = help_lines(shown)
        await go_to(pilot, shown, MAILGUN)
        keys = footer_keys(shown)
        assert keys[:2] == [("question_mark", "Help"), ("q", "Quit")], "help and quit first"
        assert ("m", "Set primary") in keys and ("p", "Set primary") not in keys
        assert " m Set primary " in footer_line(shown.query_one(AppFooter)).text, "drawn remapped"
        assert "Press m to make it the primary" in plain(shown.query_one("#integration-body"))

        await go_to(pilot, shown, SENDGRID)
        pane = " ".join(plain(shown.query_one("#integration-body")).split())
        assert "inboundWebhookEnabled true" in pane and "secure false" in pane
        assert "True" not in pane and "False" not in pane
        assert isinstance(app.screen, IntegrationsScreen)
    for keys, view, key, action in (
        (inbox, "Inbox", "p", "inbox.pick_subscriber"),
        (integration, "Integrations", "m", "integrations.set_primary"),
    ):
        assert keys.index(view) < keys.index("Everywhere") < keys.index(GENERIC), keys
        app_part = keys[: keys.index(GENERIC)]
        generic_part = keys[keys.index(GENERIC) :]
        assert any(line.startswith(f"{key} ") and action in line for line in app_part)
        assert len(generic_part) > 1 and not any(APP_ID.search(line) for line in generic_part)
    assert any(line.startswith("m Set primary") for line in integration)

    async with InboxClient(service.url, STAGING_KEY) as client:
        full = (await client.list_messages(limit=1, subscriber_id="jane")).data[0]
    assert full.template is not None
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(render_message(full, datetime.now(UTC)))
    message = " ".join(console.export_text().split())
    assert "Collect (digest) regular: amount=5, unit=minutes, backoff=true" in message
    assert "Wait (delay)" in message


def first_pages(transport: FaultTransport) -> list[httpx.Request]:
    """The requests for the first page of the v2 inbox's list."""
    return [
        r
        for r in transport.seen
        if r.url.path == "/v2/subscribers/jane/notifications"
        and r.url.params.get("offset", "0") == "0"
        and r.url.params.get("limit") == str(PAGE_SIZE)
    ]


def _with_json_values() -> dict[str, Any]:
    fixture = read_fixture(EXAMPLE)
    env = fixture["environments"][0]
    steps = env["workflows"][0]["steps"]
    steps.insert(
        0,
        {
            "name": "Collect",
            "metadata": {"type": "regular", "amount": 5, "unit": "minutes", "backoff": True},
        },
    )
    sendgrid = next(i for i in env["integrations"] if i["_id"] == SENDGRID)
    sendgrid["configurations"] = {"inboundWebhookEnabled": True}
    sendgrid["credentials"]["secure"] = False
    return fixture


async def test_the_footer_shows_its_keys_on_an_empty_inbox(make_service: ServiceFactory) -> None:
    """The footer shows its keys once the bindings are ready, even when they never change (on
    a problem screen too: tests/tui/test_app.py, test_invalid_key_at_start_shows_what_to_do)."""
    fixture = copy.deepcopy(read_fixture(EXAMPLE))
    fixture["environments"][0]["subscribers"].append({"subscriberId": "nobody-writes"})
    service = make_service(fixture=fixture)
    app = app_for(service, subscriber="nobody-writes")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, InboxScreen), what="the inbox")
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        await until(pilot, lambda: screen.feed.answered, what="the empty first page")
        await until(pilot, lambda: len(footer_keys(screen)) > 1, what="the empty inbox's footer")
        assert footer_keys(screen)[:2] == [("question_mark", "Help"), ("q", "Quit")]


def shown_in_footer(screen: Widget) -> list[Placed]:
    """The footer's keys that are drawn, left to right (the palette's key apart)."""
    return [p for p in screen.query_one(AppFooter).shown if not p.key.palette]


def footer_fits_whole(screen: Widget, width: int) -> bool:
    """The footer laid out `width` wide, with no key widgets, each key drawn inside it,
    left of the palette's key docked right, none overlapping, each drawn in its cells as
    Textual's footer key draws it (what a resize waits for: the footer redraws then)."""
    footer = screen.query_one(AppFooter)
    placed = footer.shown
    palettes = [p for p in placed if p.key.palette]
    shown = shown_in_footer(screen)
    return (
        footer.region.width == width
        and not footer.children
        and len(shown) > 2
        and len(palettes) == 1
        and palettes[0].x + palettes[0].width == width
        and all(p.x >= 0 and p.x + p.width <= width for p in shown)
        and all(p.x + p.width <= palettes[0].x for p in shown)
        and all(a.x + a.width <= b.x for a, b in pairwise(shown))
        and all(footer_line(footer, p).text == key_text(p.key) for p in placed)
    )


def key_text(key: Key) -> str:
    """A key's cells as Textual's footer key draws them: ` k description `; the palette's
    key compact after its border, padded right."""
    if key.palette:
        return (
            f"\u258f{key.display} {key.description} "
            if key.description
            else f"\u258f{key.display} "
        )
    return f" {key.display} {key.description} " if key.description else key.display


async def help_at_80_columns(pilot: Pilot[None], screen: InboxScreen) -> list[str]:
    """Help at 80 columns shows every binding id whole and explains the markers; gives
    its lines of keys."""
    app = pilot.app
    ids = {a.binding.id for a in screen.active_bindings.values() if a.binding.id}
    await pilot.press("question_mark")
    await until(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
    await settled(pilot)
    table = app.screen.query_one("#help-keys", Static)
    # Drawn at the width the help has at 80 columns, as the terminal shows it.
    width = table.content_region.width
    assert 0 < width < 80
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(table.content)
    drawn = console.export_text()
    words = set(drawn.split())
    assert {"inbox.mark_read", "inbox.pick_subscriber", "inbox.clear_selection"} <= ids
    assert ids <= words, sorted(ids - words)
    notes = " ".join(lines(app.screen.query_one("#help-notes", Static)))
    legend = " ".join(" ".join(lines(s)) for s in app.screen.query(Static))
    assert "* selects the loaded messages that the filter shows, not the whole inbox" in notes
    assert (
        "z undoes this session's writes here, newest first" in notes
        and "History (3) undoes any write" in notes
    )
    assert "⧗ a write of this row is waiting to be sent" in legend
    keys = lines(table)
    await pilot.press("escape")
    await until(pilot, lambda: app.screen is screen, what="help closed")
    return keys
