"""Who sent a mail and whether we may answer it (docs/design.md: Reliability rules —
Identity and Loops).

The message is parsed with the tolerant `compat32` policy (it never raises on bad
headers); the strict address check below is done separately on the raw From value.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from email import policy
from email.header import decode_header, make_header
from email.message import Message
from email.utils import getaddresses

from pbp.mail.limits import MAX_REFERENCES
from pbp.mail.header_values import header_line, strict_message_id

_ADDRESS = re.compile(
    r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$"
)
_MESSAGE_ID = re.compile(r"<[^<>\s]+>")
_DAEMON_LOCAL_PARTS = frozenset({"mailer-daemon", "postmaster"})
_BULK_PRECEDENCE = frozenset({"bulk", "junk", "list", "auto_reply"})
_AUTORESPONDER_MARKS = ("X-Autoreply", "X-Autorespond")


def header_text(message: Message, name: str) -> str:
    """A header's value as text, RFC 2047 words decoded; "" when absent or unreadable."""
    value = message.get(name)
    if value is None:
        return ""
    if isinstance(value, str) and "=?" not in value:
        return value.strip()  # no encoded word to decode (the common case, and much faster)
    try:
        return str(make_header(decode_header(str(value)))).strip()
    except Exception:  # an undecodable encoded-word: fall back to the raw value
        return str(value).strip()


def strict_sender(message: Message) -> str | None:
    """The one address in From, lower-cased (docs/design.md: Identity, "strict parsing, exactly one
    address"), or None: no From, several From headers, several addresses, a group, or a
    value the strict and the lenient parsers do not agree on. A display name never counts:
    `"alice@example.org" <mallory@evil>` is mallory@evil."""
    values = message.get_all("From") or []
    if len(values) != 1:
        return None
    return _strict_address(str(values[0]))


@functools.lru_cache(maxsize=4096)
def _strict_address(raw: str) -> str | None:
    """The strict check of one From value. A pure function of the text, remembered because
    players send many mails with the same From and the strict parser is slow."""
    try:
        header = policy.default.header_factory("from", raw)
    except Exception:  # hostile header text may break the parser in any way: not one address
        return None
    if any("Invalid" in type(defect).__name__ for defect in header.defects):
        return None
    addresses = header.addresses
    if len(addresses) != 1 or any(group.display_name is not None for group in header.groups):
        return None
    address: str = addresses[0].addr_spec
    lenient = [addr for _name, addr in getaddresses([raw]) if addr]
    if lenient != [address] or not _ADDRESS.match(address):
        return None
    return address.lower()


def first_message_id(message: Message, name: str = "Message-ID") -> str:
    """The first `<id>` token of the named header that has the strict shape
    (`pbp.mail.header_values.strict_message_id`), or "". Linear in the header's length."""
    for value in message.get_all(name) or []:
        for found in _MESSAGE_ID.finditer(str(value)):
            message_id = strict_message_id(found.group())
            if message_id:
                return message_id
    return ""


def message_ids(message: Message, *names: str, keep: int = MAX_REFERENCES) -> tuple[str, ...]:
    """The last `keep` distinct `<id>` tokens of the named headers that have the strict
    shape, in order (a reply's References need only the thread's latest: docs/design.md,
    Hostile input). Read from the end, so the work is one pass over the headers whatever
    they hold, and at most `keep` ids are ever kept or compared."""
    kept: list[str] = []
    values = [str(value) for name in names for value in message.get_all(name) or []]
    for value in reversed(values):
        for candidate in reversed(_MESSAGE_ID.findall(value)):
            message_id = strict_message_id(candidate)
            if message_id and message_id not in kept:  # `kept` never holds more than `keep`
                kept.append(message_id)
                if len(kept) == keep:
                    return tuple(reversed(kept))
    return tuple(reversed(kept))


def no_reply_reason(
    message: Message, sender: str | None, own_addresses: Collection[str]
) -> str | None:
    """Why the loop rules forbid answering this mail, or None when we may answer
    (docs/design.md: Loops): an automatic reply (`auto_reply_reason`) or a bounce."""
    reason = auto_reply_reason(message, sender, own_addresses)
    if reason is None and _is_delivery_report(message):
        reason = "delivery status report (a bounce)"
    return reason


def auto_reply_reason(
    message: Message, sender: str | None, own_addresses: Collection[str]
) -> str | None:
    """Why this mail is an automatic one that must never be answered, whoever sent it (the
    host's address included), or None: Auto-Submitted other than `no`, Precedence
    bulk|junk|list (or auto_reply), List-Id, an empty return path, MAILER-DAEMON or
    postmaster, an X-Autoreply/X-Autorespond mark, or our own address."""
    auto_submitted = header_text(message, "Auto-Submitted")
    if auto_submitted and auto_submitted.split(";")[0].strip().lower() != "no":
        return f"Auto-Submitted: {header_line(auto_submitted, 60)}"
    precedence = header_text(message, "Precedence").lower()
    if precedence in _BULK_PRECEDENCE:
        return f"Precedence: {precedence}"
    if message.get("List-Id") is not None:
        return "List-Id: mailing-list mail"
    if any(message.get(name) is not None for name in _AUTORESPONDER_MARKS):
        return "marked as an automatic answer (X-Autoreply)"
    return_path = header_text(message, "Return-Path")
    if message.get("Return-Path") is not None and return_path.strip("<> \t") == "":
        return "empty return path (a bounce or an automatic message)"
    from_text = header_text(message, "From").lower()
    local_part = sender.split("@")[0] if sender else ""
    if local_part in _DAEMON_LOCAL_PARTS or "mailer-daemon" in from_text:
        return "sent by a mail system (MAILER-DAEMON or postmaster)"
    own = {address.lower() for address in own_addresses}
    if sender is not None and sender in own:
        return "sent from our own address"
    return None


def _is_delivery_report(message: Message) -> bool:
    if message.get_content_type() == "multipart/report":
        return True
    if not message.is_multipart():
        return False  # a single part, already looked at
    return any(
        part.get_content_type() in ("message/delivery-status", "message/global-delivery-status")
        for part in message.walk()
    )
