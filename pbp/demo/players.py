"""Scripted players who play by mail: read the form at the end of pbp's mail, fill in the
orders `rules.scripted_orders` gives, and reply (docs/design.md: Order mail format, forms made to be
replied to). Used by `pbp demo` and by the integration tests, over any transport."""

from __future__ import annotations

import re
from email.message import EmailMessage, Message
from email.utils import formataddr, make_msgid

_BEGIN = re.compile(r"^BEGIN ORDERS (\S+) (\S+)\s*$")
_BEGIN_MESSAGE = re.compile(r"^BEGIN MESSAGE (\S+) (\S+)\s*$")


def form_in(text: str) -> tuple[str, str] | None:
    """(game, phase) of the last order form in a mail's text, or None."""
    found = None
    for line in text.splitlines():
        match = _BEGIN.match(line.strip())
        if match:
            found = (match.group(1), match.group(2))
    return found


def filled_reply_text(text: str, orders: str, quote: bool) -> str:
    """The reply body: the mail's text with the orders written into its form, either
    quoted the way mail clients quote (`> `, the whole mail) or as a bare block."""
    lines = text.splitlines()
    end = max(i for i, line in enumerate(lines) if line.strip() == "END ORDERS")
    begin = max(i for i, line in enumerate(lines[:end]) if _BEGIN.match(line.strip()))
    order_lines = [line for line in orders.splitlines() if line.strip()]
    if quote:
        filled = lines[:end] + order_lines + lines[end:]
        return (
            "My orders are in the form below.\n\nOn a day, pbp wrote:\n"
            + "\n".join(f"> {line}" if line else ">" for line in filled)
            + "\n"
        )
    block = lines[begin:end] + order_lines + [lines[end]]
    return "Hello moderator,\n\nhere are my orders:\n\n" + "\n".join(block) + "\n\nThanks!\n"


def filled_message_block(text: str, channel: str, message: str) -> str:
    """The mail's message form for `channel` (its last one), with `message` written in."""
    lines = text.splitlines()
    begin = max(
        i
        for i, line in enumerate(lines)
        if (match := _BEGIN_MESSAGE.match(line.strip())) and match.group(2) == channel
    )
    end = next(i for i in range(begin, len(lines)) if lines[i].strip() == "END MESSAGE")
    return "\n".join([*lines[begin:end], message, lines[end]]) + "\n"


def reply_to(
    mail: Message, player: str, address: str, body: str, domain: str = "players.example"
) -> EmailMessage:
    """A plain reply from a player to one of pbp's mails, threaded the way clients do."""
    reply = EmailMessage()
    reply["From"] = formataddr((player, address))
    reply["To"] = str(mail["From"])
    subject = str(mail["Subject"] or "")
    reply["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    reply["Message-ID"] = make_msgid(domain=domain)
    if mail["Message-ID"]:
        reply["In-Reply-To"] = str(mail["Message-ID"])
        reply["References"] = " ".join(
            filter(None, [str(mail.get("References", "")), str(mail["Message-ID"])])
        )
    reply.set_content(body)
    return reply


def mail_text(mail: Message) -> str:
    """The text/plain body of one of pbp's mails."""
    part = mail.get_body(("plain",)) if isinstance(mail, EmailMessage) else mail
    if part is None:
        raise ValueError(f"pbp's mail {mail['Subject']!r} has no text/plain part")
    if isinstance(part, EmailMessage):
        return str(part.get_content())
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)  # a single part's payload, decoded from its transfer encoding
    return payload.decode()
