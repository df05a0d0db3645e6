"""Provider codes in plain words (decision 94): the codes support agents meet most, each
with its provider family, a one-line meaning and what to do. Data only; the meaning is
shown beside the provider's own text, never in place of it.

`advice(family, code)` takes the family (`twilio`, `smtp`, `sendgrid`, `fcm`, `apns`)
and the code as strings; reading the code out of a provider's `raw` answer is the
parser's work (core/delivery/codes.py).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Advice:
    code: str
    family: str
    meaning: str
    todo: str

    @property
    def words(self) -> str:
        """`Twilio 21610: the recipient replied STOP … Do: …`, one line."""
        return f"{FAMILY_NAMES[self.family]} {self.code}: {self.meaning}. What to do: {self.todo}."


FAMILY_NAMES = {
    "twilio": "Twilio",
    "smtp": "SMTP",
    "sendgrid": "SendGrid",
    "fcm": "FCM",
    "apns": "APNs",
}

ROWS: tuple[Advice, ...] = (
    Advice(
        "21211",
        "twilio",
        "the 'To' phone number is not a valid phone number",
        "correct the subscriber's phone, in E.164 form with its country code (+14155550100)",
    ),
    Advice(
        "21408",
        "twilio",
        "the Twilio account may not send SMS to the number's country",
        "an admin enables that country in Twilio's SMS geographic permissions",
    ),
    Advice(
        "21610",
        "twilio",
        "the recipient replied STOP to this sender and is unsubscribed",
        "only the recipient can undo it, by texting START to the sending number",
    ),
    Advice(
        "21612",
        "twilio",
        "the number cannot be reached by SMS from this sender (carrier route or number type)",
        "use another sending number or another channel for this subscriber",
    ),
    Advice(
        "21614",
        "twilio",
        "the number is not a mobile number (a landline, most likely)",
        "ask the subscriber for a mobile number",
    ),
    Advice(
        "30003",
        "twilio",
        "the handset was unreachable (off, or out of coverage)",
        "it may work later: send again once the phone is back on",
    ),
    Advice(
        "30004",
        "twilio",
        "the message was blocked by the recipient or their carrier",
        "the recipient unblocks the sender, or asks their carrier; sending again will not help",
    ),
    Advice(
        "30005",
        "twilio",
        "the number is unknown to the carrier or no longer exists",
        "confirm the number with the subscriber and correct it",
    ),
    Advice(
        "30006",
        "twilio",
        "the number is a landline or its carrier cannot take SMS",
        "ask the subscriber for a mobile number",
    ),
    Advice(
        "30007",
        "twilio",
        "the carrier filtered the message (spam, or an unregistered sender)",
        "an admin reviews the content and the sender's registration (A2P 10DLC, toll-free)",
    ),
    Advice(
        "30008",
        "twilio",
        "the carrier gave no reason (unknown error)",
        "send again; if it persists, raise it with Twilio support",
    ),
    Advice(
        "550 5.1.1",
        "smtp",
        "the mailbox does not exist at the recipient's domain",
        "correct the subscriber's email address; sending again will bounce again",
    ),
    Advice(
        "552",
        "smtp",
        "the mailbox is full, or the message is larger than it accepts",
        "the recipient frees space (or the message is made smaller), then send again",
    ),
    Advice(
        "554",
        "smtp",
        "the receiving server refused the message (policy or spam)",
        "check the sending domain's reputation and the content; the recipient's postmaster "
        "can say why",
    ),
    Advice(
        "bounce",
        "sendgrid",
        "the receiving server rejected the address for good (a hard bounce)",
        "correct the email address; SendGrid drops later mail to it until it is removed from "
        "the bounce list",
    ),
    Advice(
        "block",
        "sendgrid",
        "the receiving server refused the message for now (reputation or policy)",
        "it is not the address: check the sending IP and domain reputation, then send again",
    ),
    Advice(
        "drop",
        "sendgrid",
        "SendGrid did not send it: the address is on a suppression list (an earlier bounce, "
        "unsubscribe or spam report)",
        "find why in SendGrid's suppressions; remove the address only if the subscriber "
        "asks for mail again",
    ),
    Advice(
        "UNREGISTERED",
        "fcm",
        "the device token is no longer valid (the app was uninstalled, or the token expired)",
        "the app registers again and sends its new token; remove the old one",
    ),
    Advice(
        "BadDeviceToken",
        "apns",
        "the device token is not valid for this APNs environment (sandbox against "
        "production), or is malformed",
        "check the integration's environment matches the app's build; get a fresh token",
    ),
)

# SendGrid names its events `bounce`, `blocked` (the bounce classification) and
# `dropped`: each read as its row.
_ALIASES = {("sendgrid", "blocked"): "block", ("sendgrid", "dropped"): "drop"}
_TABLE = {(a.family, a.code.casefold()): a for a in ROWS}


def advice(family: str, code: str) -> Advice | None:
    """The row for a provider family's code, or None. An SMTP code with an enhanced
    status not listed falls back to its basic code (`552 5.2.2` → 552)."""
    fam = family.strip().casefold()
    said = " ".join(code.replace("-", " ").split())
    said = _ALIASES.get((fam, said.casefold()), said)
    found = _TABLE.get((fam, said.casefold()))
    if found is None and fam == "smtp" and len(said) > 3:
        found = _TABLE.get((fam, said[:3]))
    return found
