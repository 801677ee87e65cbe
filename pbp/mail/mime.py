"""The texts of a mail that may hold orders (docs/design.md: Order mail format; "plain text or a
text rendering of HTML", "a block may also come in a `text/plain` attachment", "odd charsets").

Decoding never raises: unknown charsets fall back to UTF-8, undecodable bytes become
U+FFFD, and an ISO-8859-1 label is read as windows-1252 (what mail programs that say
Latin-1 usually mean, and a superset of it for printable text).
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message

from pbp.mail.flowed import decode_flowed
from pbp.mail.html_text import html_to_text
from pbp.mail.normalising import normalise_text

_LATIN1_LABELS = frozenset(
    {"iso-8859-1", "iso8859-1", "latin-1", "latin1", "l1", "iso_8859-1", "us-ascii", "ascii"}
)


@dataclass(frozen=True)
class MailTexts:
    """A mail's normalised body (inline plain text, or rendered HTML when it has none),
    the normalised text of each `text/plain` attachment, and the rendered HTML of a mail
    that has both (`html`; "" otherwise): some programs send a plain part that holds only
    the quote while the player's filled-in form is in the HTML part."""

    body: str
    attachments: tuple[str, ...]
    html: str = ""


def mail_texts(message: Message) -> MailTexts:
    plain: list[str] = []
    html: list[str] = []
    attachments: list[str] = []
    for part in _leaf_parts(message):
        content_type = part.get_content_type()
        if content_type not in ("text/plain", "text/html"):
            continue
        text = decode_part(part)
        if content_type == "text/html":
            html.append(html_to_text(text))
        elif _is_attachment(part):
            attachments.append(normalise_text(text))
        else:
            plain.append(_unflowed(part, text))
    if not plain:
        return MailTexts(body=normalise_text("\n".join(html)), attachments=tuple(attachments))
    return MailTexts(
        body=normalise_text("\n".join(plain)),
        attachments=tuple(attachments),
        html=normalise_text("\n".join(html)),
    )


def _unflowed(part: Message, text: str) -> str:
    """A `format=flowed` part's text with its soft breaks joined (pbp.mail.flowed)."""
    if "flowed" not in str(part.get("Content-Type", "")).lower():
        return text  # most parts: no parameters to parse
    if str(part.get_param("format", "") or "").lower() != "flowed":
        return text
    return decode_flowed(text, delsp=str(part.get_param("delsp", "") or "").lower() == "yes")


def _leaf_parts(message: Message) -> Iterator[Message]:
    """The non-multipart parts, not descending into attached messages (a forwarded mail's
    blocks are not this sender's orders)."""
    if message.is_multipart():
        payload = message.get_payload()
        for part in payload if isinstance(payload, list) else []:
            if isinstance(part, Message) and part.get_content_maintype() != "message":
                yield from _leaf_parts(part)
    elif message.get_content_maintype() != "message":
        yield message


def _is_attachment(part: Message) -> bool:
    disposition_header = part.get("Content-Disposition")
    if disposition_header is None and "name" not in str(part.get("Content-Type", "")).lower():
        return False  # no disposition and no name= parameter: get_filename would find nothing
    disposition = str(disposition_header or "").split(";")[0].strip().lower()
    return disposition == "attachment" or (
        disposition != "inline" and part.get_filename() is not None
    )


def decode_part(part: Message) -> str:
    """The text of one leaf part: transfer encoding (quoted-printable, base64) undone,
    then its charset applied."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):  # None: a multipart has no bytes of its own
        payload = str(part.get_payload() or "").encode("utf-8", "replace")
    return decode_bytes(payload, part.get_content_charset())


def decode_bytes(data: bytes, charset: str | None) -> str:
    label = (charset or "").strip().lower()
    if not label or label in _LATIN1_LABELS:
        # Undeclared or 7-bit/Latin-1 declared: try UTF-8 first (many clients mislabel it).
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("windows-1252", "replace")
    try:
        codecs.lookup(label)
    except LookupError:
        label = "utf-8"
    try:
        return data.decode(label, "replace")
    except Exception:  # a codec that fails in other ways than UnicodeDecodeError
        return data.decode("utf-8", "replace")
