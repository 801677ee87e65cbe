"""The reply a mail client sends when a player answers one of pbp's real mails (or one of
their own earlier orders mails) and fills in the form: headers, MIME layout, charsets,
transfer encodings, wrapping and quoting as that client does (tests/clients/clients.py).

    build_reply(original_bytes, CLIENTS["gmail-web"], Fill("uncomment", "top"), orders, …)
"""

from __future__ import annotations

import base64
import email
import hashlib
import quopri
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from email import policy
from email.header import Header
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, parseaddr

from tests.clients import forms
from tests.clients.clients import Client
from tests.clients.composition import QuoteLine, Reply, plain_text
from tests.clients.dates import written
from tests.clients.html_shapes import html_part

PLACEMENTS = ("top", "bottom", "quote", "outside", "html-only")
_QUOTE_MARKS = re.compile(r"^((?:[ \t]*>)+)[ \t]?")
_REPLY_PREFIX = re.compile(r"^\s*((re|aw|sv|antw|fwd?|tr|wg)\s*:\s*)+", re.IGNORECASE)


@dataclass(frozen=True)
class Fill:
    """How the player fills the form in: the edit (tests/clients/forms.py) and where the
    filled form goes: "top" (copied above the quote), "bottom" (below it), "quote" (edited
    where it stands, inside the quote), "outside" (the orders written as plain lines, no
    block), "html-only" (edited inside the quote in the HTML part only, the text part
    holding the quote as it was: Apple Mail)."""

    edit: str
    placement: str

    def __post_init__(self) -> None:
        if self.edit not in forms.EDITS or self.placement not in PLACEMENTS:
            raise ValueError(f"unknown fill {self}")


@dataclass(frozen=True)
class Player:
    name: str
    address: str


def build_reply(
    original: bytes,
    client: Client,
    fill: Fill,
    orders: Sequence[str],
    *,
    player: Player,
    game: str,
    phase: str,
    token: str,
    depth: int = 1,
    text_line_end: str = "\n",
    line_end: str = "\r\n",
) -> bytes:
    """The bytes the client sends: `player` answers `original` with `orders` filled in.
    `depth`: how deep the original sits in the quote (more than 1 when it came through
    earlier replies); `text_line_end`: the line ends inside the text parts before their
    transfer encoding; `line_end`: the message's own line ends."""
    message = email.message_from_bytes(original, policy=policy.default)
    if not isinstance(message, EmailMessage):
        raise TypeError("not a parsed message")
    quote = [line._replace(depth=line.depth + depth - 1) for line in quote_lines(message)]
    start, end = forms.form_span([q.text for q in quote], game, phase)
    block = [q.text for q in quote[start : end + 1]]
    composed = _composed(message, client, player, fill, orders, quote, (start, end), block)
    plain = plain_text(composed, client)
    if fill.placement == "html-only":
        if client.layout != "alternative":
            raise ValueError(f"{client.key} sends no text/plain beside its HTML")
        untouched = _composed(
            message, client, player, Fill("typed", "quote"), (), quote, (start, end), block
        )
        plain = plain_text(replace(untouched, above=list(composed.above)), client)
    head = _headers(message, client, player, token)
    html = html_part(composed, client) if client.html else ""
    data = _assemble(
        head, client, plain.replace("\n", text_line_end), html.replace("\n", text_line_end), token
    )
    return data.replace(b"\r\n", b"\n").replace(b"\n", line_end.encode())


def quote_lines(message: EmailMessage) -> list[QuoteLine]:
    """The text/plain body of the mail being replied to, as the client quotes it."""
    part = message.get_body(("plain",))
    if part is None:
        raise LookupError("the mail has no text/plain part")
    if str(part.get_param("format", "")).lower() == "flowed":
        raise NotImplementedError("replying to a format=flowed mail")
    lines = []
    for text in str(part.get_content()).splitlines():
        marks = _QUOTE_MARKS.match(text)
        lines.append(
            QuoteLine(marks.group(1).count(">"), text[marks.end() :])
            if marks
            else QuoteLine(0, text)
        )
    while lines and not lines[-1].text:
        lines.pop()
    return lines


def _own(lines: Sequence[str], player: Player) -> list[str]:
    return [line.replace("{player}", player.name) for line in lines]


def _composed(
    message: EmailMessage,
    client: Client,
    player: Player,
    fill: Fill,
    orders: Sequence[str],
    quote: list[QuoteLine],
    span: tuple[int, int],
    block: list[str],
) -> Reply:
    sender_name, sender_address = parseaddr(str(message["From"]))
    when = message["Date"].datetime
    values = {
        "from": formataddr((sender_name, sender_address)),
        "sent": written(client.date_style, when) if client.quote == "header" else "",
        "to": str(message["To"]),
        "subject": str(message["Subject"]),
    }
    attribution = client.attribution.format(
        date=written(client.date_style, when), name=sender_name, address=sender_address
    )
    header = (
        []
        if client.attribution
        else [(label, values[field]) for field, label in client.header_labels]
    )
    reply = Reply(
        attribution=attribution if client.attribution else "",
        separator=client.separator,
        header=header,
        quote=list(quote),
    )
    greeting, signature = _own(client.greeting, player), _own(client.signature, player)
    filled = forms.filled(block, orders, fill.edit)
    if fill.placement == "top":
        reply.above = (
            greeting + ([""] if greeting else []) + filled + ([""] + signature if signature else [])
        )
    elif fill.placement == "bottom":
        reply.below = (
            greeting + ([""] if greeting else []) + filled + ([""] + signature if signature else [])
        )
    elif fill.placement == "outside":
        reply.above = greeting + list(orders) + ([""] + signature if signature else [])
    else:  # edited inside the quote, where the form stands
        reply.above = signature
        reply.quote = _edited_quote(quote, span, filled, fill.edit)
    return reply


def _edited_quote(
    quote: list[QuoteLine], span: tuple[int, int], filled: list[str], edit: str
) -> list[QuoteLine]:
    """The quote with its form edited in place: a changed line stays quoted (the player
    edited it where it stands), a new line is typed (unquoted where the client lets it
    leave the quote). Both edits keep the form's lines in place and add lines only just
    above END ORDERS (tests/clients/forms.py)."""
    if edit == "strip":
        raise ValueError("a form inside the quote is filled by editing its lines or by typing")
    start, end = span
    depth = quote[start].depth
    kept = len(quote[start:end])  # the form's lines above END ORDERS
    edited = [QuoteLine(depth, text) for text in filled[:kept]]
    typed = [QuoteLine(depth, text, typed=True) for text in filled[kept:-1]]
    return quote[:start] + edited + typed + [quote[end]] + quote[end + 1 :]


def _subject(client: Client, original: str) -> str:
    return client.subject_prefix + _REPLY_PREFIX.sub("", original).strip()


def _headers(
    message: EmailMessage, client: Client, player: Player, token: str
) -> list[tuple[str, str]]:
    sender = parseaddr(str(message["From"]))
    if sender[1] == player.address:  # a reply to one's own mail goes to its recipient
        sender = parseaddr(str(message["To"]))
    references = " ".join(
        filter(None, [str(message.get("References", "")).strip(), str(message["Message-ID"])])
    )
    subject = _subject(client, str(message["Subject"]))
    return [
        ("From", formataddr((player.name, player.address), charset="utf-8")),
        ("To", formataddr(sender, charset="utf-8")),
        ("Subject", subject if subject.isascii() else Header(subject, "utf-8").encode()),
        ("Date", format_datetime(message["Date"].datetime + timedelta(minutes=17))),
        ("Message-ID", client.message_id.format(token=token)),
        ("In-Reply-To", str(message["Message-ID"])),
        ("References", references),
        ("MIME-Version", client.mime_version),
        *client.headers,
    ]


def _charset(text: str, wanted: str) -> str:
    """The declared charset, or UTF-8 when the text does not fit in it (as clients choose)."""
    try:
        text.encode(wanted)
        return wanted
    except UnicodeEncodeError:
        return "utf-8"


def _part(text: str, subtype: str, charset: str, encoding: str, extra: str = "") -> bytes:
    charset = _charset(text, charset)
    data = text.encode(charset)
    if encoding in ("7bit", "8bit") and not data.isascii():
        encoding = "8bit" if encoding == "8bit" else "quoted-printable"
    if encoding == "7bit" and any(len(line) > 998 for line in data.split(b"\n")):
        encoding = "quoted-printable"
    if encoding == "quoted-printable":
        body = quopri.encodestring(data)
    elif encoding == "base64":
        body = base64.encodebytes(data)
    else:
        body = data
    head = f'Content-Type: text/{subtype}; charset="{charset}"{extra}\nContent-Transfer-Encoding: {encoding}\n\n'
    return head.encode("ascii") + body


def _assemble(
    head: list[tuple[str, str]], client: Client, plain: str, html: str, token: str
) -> bytes:
    flowed = ""
    if client.wrap == "flowed":
        flowed = "; format=flowed" + ("; delsp=yes" if client.delsp else "")
    if client.layout == "plain":
        body = _part(plain, "plain", client.plain_charset, client.plain_encoding, flowed)
    elif client.layout == "html":
        body = _part(html, "html", client.html_charset, client.html_encoding)
    else:
        boundary = "b1_" + hashlib.sha256(token.encode()).hexdigest()[:28]
        body = (
            f'Content-Type: multipart/alternative; boundary="{boundary}"\n\n--{boundary}\n'.encode()
            + _part(plain, "plain", client.plain_charset, client.plain_encoding, flowed).rstrip(
                b"\n"
            )
            + f"\n--{boundary}\n".encode()
            + _part(html, "html", client.html_charset, client.html_encoding).rstrip(b"\n")
            + f"\n--{boundary}--\n".encode()
        )
    headers = "".join(f"{name}: {value}\n" for name, value in head).encode("utf-8")
    return headers + body
