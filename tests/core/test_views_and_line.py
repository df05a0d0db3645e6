"""Saved views (decisions 91, 121) and the `:` line's grammar (decision 122), UI-free."""

from __future__ import annotations

import pytest

from inboxdesk.core.command_line import (
    Activity,
    Env,
    LineError,
    OpenView,
    SaveView,
    Sub,
    Txn,
    completions,
    parse,
)
from inboxdesk.core.views import View, ViewError, make_view, read_view, views_of


def test_a_view_keeps_the_profile_the_environment_the_kind_and_its_filters() -> None:
    view = make_view(
        "sms-failures",
        "activity",
        profile="work",
        environment_id="env-prod",
        environment="Production",
        everyone=True,
        window="1h",
        channel="sms",
        failed=True,
        grouping="cause",
    )
    table = view.to_table()
    assert table == {
        "kind": "activity",
        "profile": "work",
        "environment_id": "env-prod",
        "environment": "Production",
        "everyone": True,
        "window": "1h",
        "channel": "sms",
        "failed": True,
        "grouping": "cause",
    }
    assert read_view("sms-failures", table) == view


def test_an_unknown_key_names_it_and_no_view_is_read() -> None:
    with pytest.raises(ViewError, match=r"unknown key 'chanel'.*not opened"):
        read_view("x", {"kind": "activity", "chanel": "sms"})
    # An inbox view takes no Activity filter.
    with pytest.raises(ViewError, match="unknown key 'failed'"):
        read_view("x", {"kind": "inbox", "subscriber": "ada", "failed": True})


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ({"kind": "timeline"}, "kind must be one of inbox, activity"),
        ({"kind": "activity", "window": "1 hour"}, "window must be a window such as"),
        ({"kind": "activity", "channel": "fax"}, "channel must be one of"),
        ({"kind": "activity", "failed": "yes"}, "failed must be true or false"),
        ({"kind": "activity", "everyone": True, "subscriber": "ada"}, "one subscriber or"),
        ({"kind": "inbox", "tab": "unread"}, "subscriber must be set"),
    ],
)
def test_a_wrong_value_is_said(table: dict[str, object], said: str) -> None:
    with pytest.raises(ViewError, match=said):
        read_view("v", table)


def test_a_verb_is_never_a_view_name_and_one_bad_view_hides_no_other() -> None:
    with pytest.raises(ViewError, match="verb of the : line"):
        make_view("sub", "activity")
    good, bad = views_of({"ok": {"kind": "activity"}, "typo": {"kind": "activity", "x": 1}})
    assert list(good) == ["ok"] and "unknown key 'x'" in bad["typo"]


def test_the_verbs() -> None:
    assert parse(":sub ada.lovelace") == Sub("ada.lovelace")
    assert parse(":env prod") == Env("prod")
    assert parse(":txn txn-1") == Txn("txn-1")
    assert parse(":view save mornings") == SaveView("mornings")
    assert parse(":view mornings", {"mornings": View("mornings", "activity")}) == OpenView(
        "mornings"
    )
    assert parse(":mornings", {"mornings": View("mornings", "activity")}) == OpenView("mornings")


def test_every_failed_sms_in_the_last_hour_is_one_line() -> None:
    assert parse(":activity failed sms 1h") == Activity(failed=True, channel="sms", window="1h")
    line = ":activity email 7d workflow:order-shipped email:a@b.c topic:orders "
    line += "context:tenant:acme sub:ada by:cause"
    assert parse(line) == Activity(
        channel="email",
        window="7d",
        subscriber="ada",
        grouping="cause",
        filters={
            "workflow": "order-shipped",
            "email": "a@b.c",
            "topic": "orders",
            "context": "tenant:acme",
        },
    )


def test_an_alias_is_its_line_and_names_no_other_alias() -> None:
    aliases = {"sms": ":activity failed sms 1h", "loop": ":sms"}
    assert parse(":sms", aliases=aliases) == Activity(failed=True, channel="sms", window="1h")
    with pytest.raises(LineError, match="names another alias"):
        parse(":loop", aliases=aliases)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("", "expected a command: sub, env, activity, view, txn, send"),
        (":sub", ":sub takes a subscriber id"),
        (":sub a b", ":sub takes a subscriber id, one word"),
        (":activity failed fax", "'fax': expected failed, a channel"),
        (":activity sms email", "one channel at most"),
        (":activity colour:red", "expected key:value with a key of workflow"),
        (":activity context:acme", "expected context:TYPE:ID"),
        (":activity by:day", "expected by:cause"),
        (":view nope", "no view 'nope'; expected one of: none saved yet"),
        (":nope", "no command, view or alias 'nope'"),
        (":send", "not taken here yet"),
    ],
)
def test_a_bad_line_says_what_it_expected(line: str, expected: str) -> None:
    with pytest.raises(LineError) as caught:
        parse(line)
    assert expected in str(caught.value)


def test_names_complete_as_typed() -> None:
    assert completions(":ac") == [":activity"]
    assert completions(":m", views=["mornings"], aliases=["mine"]) == [":mornings", ":mine"]
    assert completions(":env pr", environments=["Production", "prod"]) == [":env prod"]
    assert completions(":sub a", subscribers=["ada", "alan", "bob"]) == [":sub ada", ":sub alan"]
    assert completions(":activity failed s") == [":activity failed sms", ":activity failed sub:"]
    assert completions(":view s", views=["sms"]) == [":view save", ":view sms"]
