"""Finding things: help, footer and palette follow the keymap; values read as JSON.

Through Pilot against the real service: a key moved by the keymap shows where it is
now, help groups the app's keys apart from Textual's and says how to close it, the
palette lists each command once and finds it by its words, and the detail panes spell
values as JSON (`true`, not `True`).
"""

from __future__ import annotations

import copy
import io
import re
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import OptionList, Static

from inboxdesk.client import InboxClient
from inboxdesk.server.fixtures import read_fixture
from inboxdesk.tui.inbox.detail import render_message
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.integrations.screen import IntegrationsScreen
from inboxdesk.tui.screens.help import GENERIC, HelpScreen
from inboxdesk.tui.screens.picker import SubscriberPicker
from inboxdesk.tui.widgets.app_footer import AppFooter, key_width
from tests.conftest import EXAMPLE, MAILGUN, SENDGRID, STAGING_KEY, ServiceFactory
from tests.tui.conftest import ORG_WIDE, SIZE, app_for, plain, settled, until
from tests.tui.test_inbox import opened
from tests.tui.test_integrations import go_to, integrations

APP_ID = re.compile(r"\b(inbox|integrations|list|view|app|help)\.[a-z_]+")


def lines(static: Widget) -> list[str]:
    return [" ".join(line.split()) for line in plain(static).splitlines()]


def footer_keys(screen: Widget) -> list[tuple[str, str]]:
    """(key, description) of each key the footer shows, left to right."""
    return [(str(k.key), str(k.description)) for k in screen.query("FooterKey")]


async def help_of(pilot: Pilot[None]) -> list[str]:
    await pilot.press("question_mark")
    await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), what="help")
    keys = lines(pilot.app.screen.query_one("#help-keys", Static))
    title = plain(pilot.app.screen.query_one("#help-title", Static))
    assert "Esc" in title and "closes" in title
    await pilot.press("escape")
    await until(pilot, lambda: not isinstance(pilot.app.screen, HelpScreen), what="help closed")
    return keys


async def test_help_and_footer_follow_the_keymap_per_view_and_panes_spell_json(
    make_service: ServiceFactory,
) -> None:
    """One walk, inbox then integrations, with two keys remapped: help and footer show
    each key where the keymap put it; help groups the app's keys apart from Textual's
    and names them per view; the detail panes spell values as JSON."""
    # Credentials as an older deployment sends them (production omits them for API keys).
    service = make_service(fixture=_with_json_values(), send_credentials=True, **ORG_WIDE)
    keymap = {"inbox.mark_read": "x", "integrations.set_primary": "m"}
    app = app_for(service, keymap=keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        # A feed item carries only the workflow's id and tags, as production's feed
        # does; a full Message (from /v1/messages or mark-as) carries its steps.
        assert "Collect (digest)" not in plain(screen.query_one("#message-body"))
        inbox = await help_of(pilot)
        assert any(line.startswith("x Read inbox.mark_read") for line in inbox), inbox
        assert not any(line.startswith("r Read") for line in inbox)

        shown = await integrations(pilot)
        integration = await help_of(pilot)
        await go_to(pilot, shown, MAILGUN)
        keys = footer_keys(shown)
        assert keys[:2] == [("question_mark", "Help"), ("q", "Quit")], "help and quit first"
        assert ("m", "Set primary") in keys and ("p", "Set primary") not in keys
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


async def palette(pilot: Pilot[None], query: str) -> list[str]:
    """The first line of every entry the palette shows for `query`."""
    await pilot.press("ctrl+p")
    await until(pilot, lambda: bool(pilot.app.screen.query("CommandList")), what="palette")
    options = pilot.app.screen.query_one("CommandList", OptionList)
    if query:
        await pilot.press(*query)
    await until(pilot, lambda: options.option_count > 0, what=f"palette entries for {query!r}")
    await settled(pilot)  # the palette gathers hits in a worker; let it finish
    prompts = [options.get_option_at_index(n).prompt for n in range(options.option_count)]
    return [str(getattr(p, "plain", p)).split("\n")[0] for p in prompts]


async def test_palette_lists_each_command_once_and_finds_it_by_its_words(
    make_service: ServiceFactory,
) -> None:
    app = app_for(make_service())
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        everything = await palette(pilot, "")
        assert len(everything) == len(set(everything)), everything
        assert {"Read", "Integrations view", "Theme", "Quit"} <= set(everything)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, InboxScreen))

        found = await palette(pilot, "subscr")
        assert found and "ubscriber" in found[0], found
        assert any(name.startswith("Open inbox: ") for name in found), "by the help's words too"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, SubscriberPicker), what="the picker")


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
    """The footer composes once the bindings are ready, even when they never change (on
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
        await until(pilot, lambda: bool(footer_keys(screen)), what="the empty inbox's footer")
        assert footer_keys(screen)[:2] == [("question_mark", "Help"), ("q", "Quit")]


def shown_in_footer(screen: Widget) -> list[Widget]:
    """The footer's keys that are displayed, left to right (the palette's key apart)."""
    keys = [k for k in screen.query("FooterKey") if k.display]
    return sorted(
        (k for k in keys if not k.has_class("-command-palette")), key=lambda k: k.region.x
    )


def footer_fits_whole(screen: Widget, width: int) -> bool:
    """The footer laid out `width` wide, each key shown inside it, left of the palette's
    key, none overlapping (what a resize waits for: the footer recomposes then)."""
    footer = screen.query_one(AppFooter)
    palettes = [k for k in screen.query("FooterKey") if k.has_class("-command-palette")]
    shown = shown_in_footer(screen)
    return (
        footer.region.width == width
        and len(shown) > 2
        and len(palettes) == 1
        and palettes[0].region.right <= footer.region.right
        and all(footer.region.contains_region(k.region) for k in shown)
        and all(k.region.right <= palettes[0].region.x for k in shown)
        and all(a.region.right <= b.region.x for a, b in pairwise(shown))
    )


@pytest.mark.slow
async def test_the_footer_fits_by_rank_with_every_key_whole_and_help_has_the_rest(
    make_service: ServiceFactory,
) -> None:
    """One app, first laid out at 80 by 24 (help shows every binding id whole there),
    then resized to 100, 120 and 140 columns: at each width help and quit come first and
    fit, and up to 120 the footer is whole, by rank and full, with help listing the rest.
    The snapshots (tests/tui/test_snapshots.py, test_inbox) draw the footer as first
    laid out at 80, 100, 140 and 200 columns."""
    app = app_for(make_service())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        await settled(pilot)
        await help_at_80_columns(pilot, screen)
        for width, height in ((80, 24), (100, 30), (120, 30), (140, 42)):
            await pilot.resize_terminal(width, height)
            await until(
                pilot,
                lambda w=width: footer_fits_whole(screen, w),
                what=f"the footer whole at {width}",
            )
            await settled(pilot)
            shown = shown_in_footer(screen)
            assert footer_keys(screen)[:2] == [("question_mark", "Help"), ("q", "Quit")], width
            assert all(k.region.right <= width for k in shown[:2]), f"? and q fit at {width}"
            if width > 120:
                continue
            assert footer_fits_whole(screen, width), width
            footer = screen.query_one(AppFooter)
            palette = next(k for k in screen.query("FooterKey") if k.has_class("-command-palette"))
            labels = [str(k.key) for k in shown]  # type: ignore[attr-defined]
            # By rank: help and quit, the marks, the filter, go to and undo come first.
            assert labels[:7] == ["question_mark", "q", "r", "u", "slash", "ctrl+g", "z"], labels
            if width >= 100:
                assert "space" in labels, labels
            if width >= 120:
                assert "p" in labels and "2" in labels, labels
            # Each key's cells as the footer reckons them (it makes only those that fit,
            # that wide) are the cells Textual draws it in; the palette's key, not given
            # a width, is laid out in its reckoned cells too.
            assert all(key_width(k) == cell_len(k.render().plain) for k in shown), width  # type: ignore[union-attr]
            assert all(key_width(k) == k.outer_size.width for k in [*shown, palette])
            descriptions = [str(k.description) for k in shown]  # type: ignore[attr-defined]
            offered = [b for _, b, _, _ in screen.active_bindings.values() if b.show]
            left_out = [b for b in offered if b.description not in descriptions]
            hidden = [b.description for b in left_out]
            assert hidden, f"the inbox has more keys than {width} columns"
            # Full: none of the keys left out would have fit in the room left.
            room = palette.region.x - footer.region.x - sum(k.outer_size.width for k in shown)
            cells = [len(app.get_key_display(b)) + len(b.description) + 3 for b in left_out]
            assert all(c > room for c in cells), (room, hidden)
            keys = await help_of(pilot)
            assert all(any(f" {d} inbox." in f" {line}" for line in keys) for d in hidden), hidden


async def help_at_80_columns(pilot: Pilot[None], screen: InboxScreen) -> None:
    """Help at 80 columns shows every binding id whole and explains the markers."""
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
    await pilot.press("escape")
    await until(pilot, lambda: app.screen is screen, what="help closed")
