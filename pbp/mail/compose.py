"""Building the mails pbp sends (docs/design.md: Loops — "mark everything we send
`Auto-Submitted: auto-replied` (or `auto-generated`)"; Identity — one recipient each).

No clock is read here: the caller passes the Date (or none) so the output is deterministic.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime


def compose(
    sender: str,
    recipient: str,
    subject: str,
    body: str,
    message_id: str,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    auto: str = "auto-replied",
    date: datetime | None = None,
) -> EmailMessage:
    """One UTF-8 text/plain mail to one recipient, threaded under `in_reply_to`."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = recipient
    message["Subject"] = subject
    message["Message-ID"] = message_id
    if date is not None:
        message["Date"] = format_datetime(date)
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
    thread = [ref for ref in references if ref]
    if in_reply_to and in_reply_to not in thread:
        thread.append(in_reply_to)
    if thread:
        message["References"] = " ".join(thread)
    message["Auto-Submitted"] = auto
    # Asks Exchange-style servers not to send out-of-office answers back (loop prevention).
    message["X-Auto-Response-Suppress"] = "All"
    message.set_content(body if body.endswith("\n") else body + "\n", charset="utf-8")
    return message
