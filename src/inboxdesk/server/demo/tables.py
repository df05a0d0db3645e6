"""The demo's fixed tables: people, integrations, workflows and the words messages are
made of. The generators in this package draw from them with one seeded generator."""

from __future__ import annotations

from typing import Any

BIG_INBOX = "margaret.hamilton"
BIG_INBOX_SIZE = 2100

PEOPLE = [
    ("ada.lovelace", "Ada", "Lovelace", "en-GB", "Europe/London"),
    ("grace.hopper", "Grace", "Hopper", "en-US", "America/New_York"),
    ("alan.turing", "Alan", "Turing", "en-GB", "Europe/London"),
    ("katherine.johnson", "Katherine", "Johnson", "en-US", "America/Chicago"),
    ("linus.torvalds", "Linus", "Torvalds", "fi-FI", "Europe/Helsinki"),
    (BIG_INBOX, "Margaret", "Hamilton", "en-US", "America/Los_Angeles"),
    ("hedy.lamarr", "Hedy", "Lamarr", "de-AT", "Europe/Vienna"),
]

INTEGRATIONS: list[tuple[str, str, str, bool, bool, dict[str, str]]] = [
    # channel, name, providerId, active, primary, credentials
    ("in_app", "Inbox", "novu", True, False, {"hmac": "true"}),
    (
        "email",
        "SendGrid",
        "sendgrid",
        True,
        True,
        {"apiKey": "SG.", "from": "hello@acme.test", "senderName": "Acme"},
    ),
    (
        "email",
        "Mailgun EU",
        "mailgun",
        True,
        False,
        {"apiKey": "key-", "domain": "mg.acme.test", "region": "eu", "from": "hello@acme.test"},
    ),
    (
        "email",
        "Amazon SES",
        "ses",
        False,
        False,
        {
            "apiKey": "AKIA",
            "secretKey": "ses/",
            "region": "us-east-1",
            "from": "no-reply@acme.test",
        },
    ),
    (
        "email",
        "Company SMTP",
        "nodemailer",
        True,
        False,
        {
            "host": "smtp.acme.test",
            "port": "587",
            "user": "mailer",
            "password": "pw-",
            "from": "it@acme.test",
        },
    ),
    (
        "sms",
        "Twilio",
        "twilio",
        True,
        True,
        {"accountSid": "AC", "token": "tw-", "from": "+15550100"},
    ),
    ("sms", "Vonage", "nexmo", True, False, {"apiKey": "vn-", "secretKey": "vs-", "from": "ACME"}),
    (
        "sms",
        "Plivo",
        "plivo",
        False,
        False,
        {"accountSid": "MA", "token": "pl-", "from": "+15550111"},
    ),
    (
        "chat",
        "Slack",
        "slack",
        True,
        False,
        {
            "applicationId": "A0",
            "clientId": "c-",
            "secretKey": "sl-",
            "redirectUrl": "https://acme.test/slack",
        },
    ),
    (
        "chat",
        "Discord",
        "discord",
        True,
        False,
        {"webhookUrl": "https://discord.test/api/webhooks/"},
    ),
    (
        "push",
        "Firebase Cloud Messaging",
        "fcm",
        True,
        False,
        {"serviceAccount": '{"type":"service_account"}'},
    ),
    (
        "push",
        "Apple Push",
        "apns",
        False,
        False,
        {"secretKey": "p8-", "user": "team", "token": "ap-"},
    ),
]

WORKFLOWS = [
    (
        "Comment on your post",
        "engagement",
        "New comment from {actor}",
        "{actor} replied: \u201c{snippet}\u201d",
    ),
    ("Weekly digest", "digest", "Your week at Acme", "{count} updates in {project} this week"),
    (
        "Order shipped",
        "commerce",
        "Order #{order} is on its way",
        "Your order #{order} shipped via {carrier}.",
    ),
    (
        "Security alert",
        "security",
        "New sign-in from {city}",
        "A new sign-in to your account from {city} ({device}).",
    ),
    (
        "Invoice ready",
        "billing",
        "Invoice {invoice} is ready",
        "Your invoice {invoice} for ${amount} is ready to pay.",
    ),
    (
        "Deploy finished",
        "devops",
        "{project} deployed to production",
        "Build {build} of {project} finished in {minutes} min.",
    ),
]

ACTORS = [
    "Ada",
    "Grace",
    "Alan",
    "Katherine",
    "Linus",
    "Margaret",
    "Hedy",
    "Barbara",
    "Dennis",
    "Ken",
]
SNIPPETS = [
    "Looks great, ship it!",
    "Can we move this to Thursday?",
    "I left a few notes inline.",
    "This fixes the flaky test \U0001f389",
    "Why does the build take so long?",
    "Approved with one nit.",
    "Let's pair on this tomorrow.",
]
CITIES = [
    ("Lisbon", "Firefox on Linux"),
    ("Osaka", "Safari on iPhone"),
    ("Denver", "Chrome on macOS"),
    ("Nairobi", "Edge on Windows"),
]
PROJECTS = ["apollo", "gemini", "mercury", "voyager", "pioneer"]
CARRIERS = ["DHL", "UPS", "FedEx", "La Poste"]
# Errors that fit the message: a provider's refusal for its channel, or a variable of
# the message's own workflow missing from the payload.
PROVIDER_ERRORS = {
    "email": "Provider rejected the message: recipient inbox is full",
    "sms": "Provider rejected the message: the number is unreachable",
    "push": "Provider rejected the message: the device token has expired",
    "chat": "Provider rejected the message: the webhook was revoked",
}
WARNINGS = [("slow_provider", "Provider answered after 12 s; delivered late")]


# Conditions as production's database holds them from older dashboards: no `isNegated`
# or `type`, children with `_id`, `on: tenant`, values that are numbers or lists. The
# client must read every one.
STORED_CONDITIONS: dict[str, list[dict[str, Any]]] = {
    "ses": [
        {
            "value": "AND",
            "children": [
                {
                    "_id": "6613a1f0c2b4e5a6b7c8d9e0",
                    "field": "region",
                    "value": "eu-west",
                    "operator": "EQUAL",
                    "on": "tenant",
                }
            ],
        }
    ],
    "plivo": [
        {
            "value": "OR",
            "children": [
                {"field": "tier", "value": 3, "operator": "LARGER", "on": "payload"},
                {"field": "tags", "value": ["vip", "beta"], "operator": "IN", "on": "payload"},
            ],
        }
    ],
}
# Each environment's primaries: Production sends email through its own SMTP server.
PRIMARIES = {
    "Development": {"email": "SendGrid", "sms": "Twilio"},
    "Production": {"email": "Company SMTP", "sms": "Twilio"},
}
