"""Small readings of an IMAP server's answers, and dropping a connection we abandon
(pbp.mail.imap.mailbox)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from imapclient import IMAPClient


def announces_mail(responses: Iterable[tuple[object, ...]]) -> bool:
    return any(
        len(response) > 1 and response[1] in (b"EXISTS", b"RECENT") for response in responses
    )


def envelope_sender(envelope: Any) -> str:
    """The first From address of an IMAP ENVELOPE, lower-cased, or ""."""
    try:
        address = envelope.from_[0]
        mailbox = (address.mailbox or b"").decode("utf-8", "replace")
        host = (address.host or b"").decode("utf-8", "replace")
    except (AttributeError, IndexError, TypeError):
        return ""
    return f"{mailbox}@{host}".lower() if mailbox and host else ""


def quietly_close(client: IMAPClient) -> None:
    """Log out, or at least drop the socket, of a connection we are abandoning."""
    try:
        client.logout()
    except (
        Exception
    ):  # the connection is being abandoned: a failing logout only means shutting it down
        try:
            client.shutdown()
        except Exception:  # the socket may be gone already; nothing is left to close
            pass
