"""Sending what a host command queued, at once, so players hear of it without waiting for
the daemon (which would send it at its next cycle anyway: the outbox is the only way out)."""

from __future__ import annotations

from pbp.moderator import Moderator
from pbp.mail.transport import open_sender
from pbp.daemon.outbox_sending import send_due


def send_queued(moderator: Moderator, send: bool = True, what: str = "Mails") -> str:
    """Send the outbox's due rows; one line for the host saying what happened (`what`
    names the mails: "Mails", "Reports", "Welcome mails")."""
    if not send:
        return (
            f"{what} queued: {moderator.outbox.pending()}; they go out with the next `pbp poll` or"
            " `pbp run`."
        )
    sender = open_sender(moderator.settings)
    try:
        sent = send_due(moderator.outbox, sender)
    finally:
        sender.close()
    return f"{what} sent: {sent.sent}; waiting to retry: {sent.retrying}; failed: {sent.failed}."
