"""A fixture whose every string field is hostile: markup, escapes, controls, bidi, huge.

Loaded with `load_fixture` (or `serve --load`), it lets the app and the command line be
driven over text that tries to run actions, restyle, hyperlink, move the cursor, set
the window title, write the clipboard, reorder itself or overflow the layout.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

HOSTILE_KEY = "hostile-key-0123456789abcdef"
SUBSCRIBER = "mallory"
OTHER_SUBSCRIBER = "[@click=app.quit]eve[/]"
# A subscriber whose id splits a CSV row and starts a formula where it lands.
FORMULA_SUBSCRIBER = "\r=3+4"

# Each names what it tries; all of them together go into every string field.
ATTACKS: dict[str, str] = {
    "click": "[@click=app.quit]quit[/]",
    "click_screen": "[@click=screen.mark_all_read]https://example.com/offer[/]",
    "link": "[link=file:///etc/passwd]open me[/link]",
    "style": "[bold red]restyled[/]",
    "unbalanced": "Use code [/] at checkout",
    "open_tag": "[link=",
    "csi_clear": "\x1b[2J\x1b[H",
    "osc_title": "\x1b]0;pwned-title\x07",
    "osc_link": "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
    "osc_clipboard": "\x1b]52;c;ZXZpbA==\x07",
    "bel_nul": "bell\x07nul\x00",
    "c1": "c1\x9b31mcsi\x9d0;osc\x9c",
    "bidi": "abc\u202edcba",
    "zero_width": "zero\u200bwidth\u200djoin\ufeff",
    "cjk_emoji": "漢字テスト😀👩‍👩‍👧",
    # The second pass's breaks:
    "paste_end": "\x1b[201~\nrm -rf ~\n",  # ends a bracketed paste, then a command
    "combining": "e" + "\u0301" * 300,  # a mark flood on one character
    "hangul_filler": "fill\u3164\u115f\u1160er",  # 0 cells by count, drawn wider
    "invisible": "tag\U000e0041\U000e0042 vs\ufe0e\U000e0100 shy\u00ad cgj\u034f "
    "khmer\u17b4\u17b5 ann\ufff9\ufffb inh\u206a\u206f",
}
ALL = " ".join(ATTACKS.values())
# Text that a spreadsheet would run, or that would split a CSV row: in ids, targets,
# errors and errorIds of the journal and its exports.
FORMULAS: dict[str, str] = {
    "cr_formula": "\r=3+4",
    "tab_formula": "\t=HYPERLINK(1)",
    "equals": "=1+1",
    "plus": "+1",
    "minus": "-1",
    "at": "@SUM(1)",
    "lf_split": "a\n=1+1",
    "crlf_split": "b\r\n@x",
}
JOURNAL_ATTACKS = {
    **FORMULAS,
    **{k: ATTACKS[k] for k in ("osc_title", "csi_clear", "c1", "bidi", "bel_nul")},
}
LONG_WORD = "W" * 10_000
BIG_PAYLOAD = {"blob": "x" * 1_000_000, "attack": ALL}
# Shown literally, so a test can look for it on screen.
VISIBLE_MARKER = "[bold red]restyled[/]"


def _text(label: str) -> str:
    return f"{label} {ALL}"


def hostile_fixture() -> dict[str, Any]:
    """One environment whose messages, subscribers and integrations are all hostile."""
    messages: list[dict[str, Any]] = [
        {
            "subscriberId": SUBSCRIBER,
            "workflow": _text("workflow"),
            "title": _text(f"title {name}") if name != "long" else LONG_WORD,
            "content": f"{name}: {attack} {ALL}",
            "subject": _text("subject"),
            "transactionId": _text("tx"),
            "read": n % 2 == 0,
            "seen": n % 3 == 0,
            "status": "error" if n % 4 == 0 else "sent",
            "errorText": _text("error"),
            "errorId": _text("errorId"),
            "cta": {
                "type": "redirect",
                "data": {"url": attack},
                "action": {
                    "status": "pending",
                    "buttons": [
                        {"type": "primary", "content": _text("button"), "resultContent": ALL}
                    ],
                },
            },
            "payload": {"attack": attack, "all": ALL, attack: ALL},
            "overrides": {"email": {"subject": ALL}},
            "contextKeys": [f"tenant:{attack}"],
        }
        for n, (name, attack) in enumerate([*ATTACKS.items(), ("long", LONG_WORD)])
    ]
    messages.append(
        {
            "subscriberId": SUBSCRIBER,
            "workflow": _text("workflow"),
            "title": "Blocks " + ALL,
            "content": [
                {"type": "text", "content": ALL},
                {"type": "button", "content": ATTACKS["click"], "url": ATTACKS["link"]},
            ],
            "payload": BIG_PAYLOAD,
        }
    )
    return {
        "organization": _text("org"),
        "environments": [
            {
                "name": _text("env"),
                "apiKey": HOSTILE_KEY,
                "integrations": [
                    {
                        "name": _text("integration"),
                        "identifier": "hostile-email",
                        "providerId": "sendgrid",
                        "channel": "email",
                        "primary": True,
                        "credentials": {
                            "apiKey": ALL,
                            "from": ALL,
                            # Credential names from the wire are text too.
                            "\x1b]0;cred-title\x07name": "x",
                            "\x1b]52;c;ZXZpbA==\x07": "y",
                        },
                        "configurations": {
                            "inboundWebhookSigningKey": "whsec_" + "s" * 24,
                            ATTACKS["click"]: ALL,
                        },
                    },
                    {
                        "name": ATTACKS["click"],
                        "identifier": ATTACKS["link"],
                        "providerId": "mailgun",
                        "channel": "email",
                        "conditions": [
                            {
                                "isNegated": False,
                                "type": "GROUP",
                                "value": "AND",
                                "children": [
                                    {
                                        "field": ATTACKS["click"],
                                        "value": ALL,
                                        "operator": "EQUAL",
                                        "on": "payload",
                                    }
                                ],
                            }
                        ],
                    },
                    {
                        "name": _text("sms"),
                        "identifier": "hostile-sms",
                        "providerId": "twilio",
                        "channel": "sms",
                        "primary": True,
                    },
                ],
                "workflows": [{"name": _text("workflow"), "steps": [{"name": ALL}]}],
                "subscribers": [
                    {
                        "subscriberId": SUBSCRIBER,
                        "firstName": _text("first"),
                        "lastName": ATTACKS["open_tag"],
                        "email": ATTACKS["link"],
                        "phone": ATTACKS["osc_title"],
                        "avatar": ATTACKS["osc_link"],
                        "locale": ATTACKS["bidi"],
                        "data": {"note": ALL, ATTACKS["click"]: LONG_WORD},
                    },
                    {"subscriberId": OTHER_SUBSCRIBER, "firstName": ATTACKS["link"]},
                    {"subscriberId": FORMULA_SUBSCRIBER, "firstName": FORMULAS["tab_formula"]},
                ],
                "messages": [
                    *messages,
                    *(
                        {
                            "subscriberId": FORMULA_SUBSCRIBER,
                            "workflow": _text("workflow"),
                            "title": formula,
                            "content": formula,
                            "transactionId": formula,
                            "errorId": formula,
                        }
                        for formula in FORMULAS.values()
                    ),
                ],
            }
        ],
    }


# The fourth pass: a provider answer nested far deeper than anything reads recursively,
# and one deep enough to take minutes to indent and draw.
DEEP_RAW = "[" * 100_000 + "]" * 100_000
DEEPISH_RAW = '{"a":' * 600 + "1" + "}" * 600
# A workflow's name that speaks to the terminal from its first character, so that no
# cut to a title's width leaves the attack out.
TERMINAL_WORKFLOW = "".join(
    ATTACKS[k] for k in ("osc_clipboard", "osc_title", "bel_nul", "c1", "bidi", "csi_clear")
)


def hostile_delivery_fixture() -> dict[str, Any]:
    """The hostile fixture with mallory's notifications: a workflow named with every
    attack (an OSC 52 among them: it once reached the timeline's sub-title raw), and
    provider answers nested 100,000 and 600 deep."""
    fixture = hostile_fixture()
    environment = fixture["environments"][0]
    environment["workflows"].append({"name": TERMINAL_WORKFLOW, "steps": [{"name": "email"}]})
    workflow = TERMINAL_WORKFLOW
    environment["notifications"] = [
        {
            "subscriberId": SUBSCRIBER,
            "workflow": workflow,
            "transactionId": f"tx-deep-{n}",
            "createdAt": f"2026-11-{10 + n:02d}T10:00:00.000Z",
            "jobs": [
                {
                    "type": "email",
                    "status": "failed",
                    "providerId": "sendgrid",
                    "executionDetails": [
                        {"status": "Failed", "detail": _text("detail"), "raw": raw},
                    ],
                }
            ],
        }
        for n, raw in enumerate([DEEP_RAW, DEEPISH_RAW, ALL])
    ]
    return fixture


def _workflow_preference(identifier: str, name: str) -> dict[str, Any]:
    return {
        "enabled": True,
        "channels": {"email": True},
        "overrides": [],
        "workflow": {"identifier": identifier, "slug": identifier, "name": name},
    }


def listed_twice(method: str, path: str, body: Any) -> Any:
    """A service that lists things twice (a rewrite for tests/production_shaped.py):
    each Activity page names its first notification again; a workflow is in both the
    critical and the changeable preferences, and one has no identifier at all."""
    if method != "GET" or not isinstance(body, dict):
        return body
    data = body.get("data")
    if path.startswith("/v1/notifications?") and isinstance(data, list) and data:
        return {**body, "data": [*data, data[0]]}
    if "/preferences?" in path and isinstance(data, dict):
        extra = [_workflow_preference("twice", "Listed twice")]
        if "criticality=nonCritical" in path:
            extra.append(_workflow_preference("", "No identifier"))
        return {**body, "data": {**data, "workflows": [*data.get("workflows", []), *extra]}}
    return body


def preference_unchanged(method: str, path: str, body: Any) -> Any:
    """A service whose answer to a preference change shows every channel off (a rewrite
    for tests/production_shaped.py): the change it claims to have made is not there."""
    if method != "PATCH" or "/preferences" not in path or not isinstance(body, dict):
        return body
    data = body.get("data")
    if not isinstance(data, dict):
        return body

    def off(item: dict[str, Any]) -> dict[str, Any]:
        return {**item, "channels": dict.fromkeys(item.get("channels", {}), False)}

    workflows = [off(w) for w in data.get("workflows", [])]
    return {**body, "data": {**data, "global": off(data["global"]), "workflows": workflows}}


def calendar_edge_fixture() -> dict[str, Any]:
    """A fixture whose message was made at the calendar's first moment in a zone ahead
    of UTC: in UTC it falls in year 0, which no date can hold."""
    fixture = hostile_fixture()
    environment = fixture["environments"][0]
    environment["messages"] = environment["messages"][:1]
    environment["messages"][0]["createdAt"] = "0001-01-01T00:00:00+14:00"
    return fixture


# Nested past any recursion a view could afford, yet within the JSON parser's ceiling.
DEEP_DATA: Any = "bottom"
for _ in range(190):
    DEEP_DATA = {"next": DEEP_DATA}


def inbox_listed_badly(unreadable: str, deep: str) -> Callable[[str, str, Any], Any]:
    """A service whose inbox pages go wrong (a rewrite for tests/production_shaped.py):
    on each page of the v2 list or the v1 feed, the message `unreadable` cannot be read
    (its flags are not booleans), the first message is listed again as the second
    (one more than asked for), and the message `deep` carries data nested 190 deep."""

    def rewrite(method: str, path: str, body: Any) -> Any:
        listing = "/v2/subscribers/" in path and "/notifications?" in path
        feed = "/notifications/feed?" in path
        if method != "GET" or not (listing or feed) or not isinstance(body, dict):
            return body
        data = body.get("data")
        if not isinstance(data, list) or not data:
            return body
        flag = "isRead" if listing else "read"
        key = "id" if listing else "_id"
        items = []
        for item in data:
            if item.get(key) == unreadable:
                item = {**item, flag: "maybe"}
            if item.get(key) == deep:
                item = {**item, ("data" if listing else "payload"): DEEP_DATA}
            items.append(item)
        return {**body, "data": [items[0], items[0], *items[1:]]}

    return rewrite
