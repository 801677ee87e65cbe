"""Building the mails pbp sends (docs/design.md: Loops — "mark everything we send
`Auto-Submitted: auto-replied` (or `auto-generated`)"; Identity — one recipient each;
Hostile input — every header value passes `pbp.mail.header_values` here, whatever it was
made from, and threading headers carry only Message-IDs of the strict shape).

No clock is read here: the caller passes the Date (or none) so the output is deterministic.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from email import policy
from email.headerregistry import Address, BaseHeader, HeaderRegistry
from email.message import EmailMessage
from email.utils import format_datetime

from pbp.mail.header_values import header_line, strict_message_id
from pbp.mail.wrapping import wrap_body

Mailbox = str | tuple[str, str]  # an address, or (display name, address)
# The longest body line, in bytes, sent unencoded: MIME allows 998 (RFC 2045, 2.7 and
# 2.8), less one for the dot SMTP adds in front of a line that starts with one.
UNENCODED_LINE_LIMIT = 997


class _KeptHeaders(HeaderRegistry):
    """The email package parses every header value it is given, and makes a new class for
    every header, which was most of the cost of composing a mail. Most values repeat from
    mail to mail (the sender, a player's address, the phase's subject, the MIME headers):
    this registry keeps the classes, and the recent headers by name and value. Header
    objects are immutable, so one can sit in many mails; the mails' bytes are the same."""

    @functools.lru_cache(maxsize=None)
    def __getitem__(self, name: str) -> type[BaseHeader]:
        return super().__getitem__(name)

    def __call__(self, name: str, value: Any) -> BaseHeader:
        if isinstance(value, str):
            return self._made(name, value)
        return super().__call__(name, value)

    @functools.lru_cache(maxsize=4096)
    def _made(self, name: str, value: str) -> BaseHeader:
        return super().__call__(name, value)


_HEADERS = _KeptHeaders()
_POLICY = policy.default.clone(header_factory=_HEADERS)


@functools.lru_cache(maxsize=4096)
def _address_header(name: str, display_name: str, address: str) -> BaseHeader:
    """A From or To header for (name, address), made once: see `_mailbox`."""
    return _HEADERS(name, Address(display_name=display_name, addr_spec=address))


def compose(
    sender: Mailbox,
    recipient: Mailbox,
    subject: str,
    body: str,
    message_id: str,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    auto: str = "auto-replied",
    date: datetime | None = None,
    attachments: Sequence[tuple[str, str, str]] = (),
) -> EmailMessage:
    """One UTF-8 text/plain mail to one recipient, threaded under `in_reply_to`, its lines
    wrapped to fit a phone and a reply (pbp.mail.wrapping); each attachment, (filename,
    content type, text), makes it multipart/mixed after the text."""
    message = EmailMessage(policy=_POLICY)
    message["From"] = _mailbox("From", sender)
    message["To"] = _mailbox("To", recipient)
    message["Subject"] = header_line(subject)
    message["Message-ID"] = message_id
    if date is not None:
        message["Date"] = format_datetime(date)
    in_reply_to = strict_message_id(in_reply_to) if in_reply_to else None
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
    thread = [ref for ref in map(strict_message_id, references) if ref]
    if in_reply_to and in_reply_to not in thread:
        thread.append(in_reply_to)
    if thread:
        message["References"] = " ".join(thread)
    message["Auto-Submitted"] = auto
    # Asks Exchange-style servers not to send out-of-office answers back (loop prevention).
    message["X-Auto-Response-Suppress"] = "All"
    text = wrap_body(body if body.endswith("\n") else body + "\n")
    message.set_content(text, charset="utf-8", cte=_transfer_encoding(text))
    for filename, content_type, text in attachments:
        maintype, _, subtype = content_type.partition("/")
        message.add_attachment(
            text.encode("utf-8"), maintype=maintype, subtype=subtype, filename=header_line(filename)
        )
    return message


def _transfer_encoding(text: str) -> str | None:
    """The body's transfer encoding: None lets the email package choose when every line fits
    in 78 characters (7bit, or 8bit) or when one is longer than may go unencoded
    (`UNENCODED_LINE_LIMIT`). In between (a report's line listing every room or every
    player) it is 7bit or 8bit all the same: the email package would encode the whole body
    in quoted-printable, in Python, which was a third of the cost of composing a report."""
    longest = max(map(len, text.encode("utf-8").splitlines()), default=0)
    if longest <= (_POLICY.max_line_length or 0) or longest > UNENCODED_LINE_LIMIT:
        return None
    return "7bit" if text.isascii() else "8bit"


def _mailbox(header: str, mailbox: Mailbox) -> BaseHeader | str:
    """A (name, address) pair made from an `Address`, so the display name is quoted or
    encoded by the email package instead of parsed (its parser fails on names such as ".")."""
    if isinstance(mailbox, tuple):
        name, address = mailbox
        return _address_header(header, header_line(name), address)
    return header_line(mailbox)
