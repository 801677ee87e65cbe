"""From the bytes of one inbound mail to what the game side needs (`InboundMail`).

This never raises: a mail that cannot be read (malformed MIME, odd charsets) still yields an
`InboundMail`, with `problems` saying what went wrong (docs/design.md: Bad input, "Bad input …
the poller never dies of one message").
"""

from __future__ import annotations

import email
from collections.abc import Callable, Collection
from email import policy
from email.message import Message
from typing import Any, TypeVar

from pbp.mail.delivery_status import read_bounce
from pbp.mail.blocks import find_blocks
from pbp.mail.commands import find_approval, find_command
from pbp.mail.header_values import header_line
from pbp.mail.headers import (
    first_message_id,
    header_text,
    message_ids,
    no_reply_reason,
    strict_sender,
)
from pbp.mail.mime import MailTexts, mail_texts
from pbp.mail.normalising import normalise_text
from engine.errors import Wording
from pbp.ports import InboundMail, RawMail
from pbp.mail.signup_words import find_signup

UNREADABLE = Wording("This mail could not be read; send your orders again as a plain-text mail.")
Read = TypeVar("Read")
Fallback = TypeVar("Fallback")


class IndexedMessage(Message):
    """The tolerant `compat32` message, with header look-ups through a dict built on first
    use. The stdlib scans every header line (lower-casing each name) per look-up, and
    reading one mail takes some twenty look-ups (sender, loop headers, MIME parameters).
    The index is rebuilt whenever the header list is replaced or changes length, and
    `replace_header`, the one change made in place, drops it."""

    _indexed: list[tuple[str, str]] | None = None  # the header list the index was built from
    _indexed_length = 0
    _index: dict[str, list[tuple[str, str]]]

    def _header_index(self) -> dict[str, list[tuple[str, str]]]:
        headers: list[tuple[str, str]] = self._headers  # type: ignore[attr-defined]  # stdlib's own, not in typeshed
        if self._indexed is not headers or self._indexed_length != len(headers):
            index: dict[str, list[tuple[str, str]]] = {}
            for name, value in headers:
                index.setdefault(name.lower(), []).append((name, value))
            self._index, self._indexed, self._indexed_length = index, headers, len(headers)
        return self._index

    def get(self, name: str, failobj: Any = None) -> Any:
        found = self._header_index().get(name.lower())
        if not found:
            return failobj
        return self.policy.header_fetch_parse(*found[0])

    def get_all(self, name: str, failobj: Any = None) -> Any:
        found = self._header_index().get(name.lower())
        if not found:
            return failobj
        return [self.policy.header_fetch_parse(*pair) for pair in found]

    def __contains__(self, name: str) -> bool:
        return name.lower() in self._header_index()

    def get_content_type(self) -> str:
        """The stdlib's answer, remembered with the header index (and default type) it came
        from: reading one mail asks it of each part several times."""
        index = self._header_index()
        known = self.__dict__.get("_content_type")
        default_type = self._default_type  # type: ignore[attr-defined]  # stdlib's own, not in typeshed
        if known is not None and known[0] is index and known[1] == default_type:
            content_type: str = known[2]
            return content_type
        content_type = super().get_content_type()
        self._content_type = (index, default_type, content_type)
        return content_type

    def replace_header(self, _name: str, _value: Any) -> None:
        super().replace_header(_name, _value)
        self._indexed = None


def _parse(data: bytes) -> Message:
    return email.message_from_bytes(data, _class=IndexedMessage, policy=policy.compat32)


def parse_inbound(raw: RawMail, own_addresses: Collection[str], max_bytes: int) -> InboundMail:
    """Parse one fetched mail: its strict sender, loop status, order blocks and commands."""
    if len(raw.data) > max_bytes:
        return _too_large(raw, max_bytes)
    try:
        message = _parse(raw.data)
    except Exception:  # hostile bytes may break the parser in any way: the mail is unreadable
        return InboundMail(
            key=raw.key,
            sha256=raw.sha256,
            sender=None,
            message_id="",
            subject="",
            problems=(UNREADABLE,),
        )
    base = _header_facts(raw, message, own_addresses)
    subject = base["subject"]
    if base["no_reply_reason"]:  # only an automatic message can be a bounce
        base["bounce"] = _safely(lambda: read_bounce(message), None)
    try:
        texts = mail_texts(message)
    except Exception:  # hostile MIME may break the decoders in any way: the mail is unreadable
        return InboundMail(**base, problems=(UNREADABLE,))
    return InboundMail(
        **base, **_with_signup(_orders_or_commands(texts, subject), texts.body, subject)
    )


def _too_large(raw: RawMail, max_bytes: int) -> InboundMail:
    """A mail over the size limit, not parsed: the sender is told to send a short one."""
    return InboundMail(
        key=raw.key,
        sha256=raw.sha256,
        sender=None,
        message_id="",
        subject="",
        no_reply_reason=f"over the size limit of {max_bytes} bytes",
        problems=(
            Wording(
                "This mail is larger than %(most)s bytes; send your orders as a short plain-text"
                " mail.",
                {"most": max_bytes},
            ),
        ),
    )


def _header_facts(raw: RawMail, message: Message, own_addresses: Collection[str]) -> dict[str, Any]:
    """What the headers say (sender, ids, subject, loop status, authentication results),
    each read so that a header that breaks the parser leaves only its own fact unknown."""
    sender = _safely(lambda: strict_sender(message), None)
    subject = header_line(normalise_text(_safely(lambda: header_text(message, "Subject"), "")))
    return dict(
        key=raw.key,
        sha256=raw.sha256,
        sender=sender,
        message_id=_safely(lambda: first_message_id(message), ""),
        subject=subject,
        references=_safely(lambda: message_ids(message, "References", "In-Reply-To"), ()),
        no_reply_reason=_safely(
            lambda: no_reply_reason(message, sender, own_addresses), "unreadable headers"
        ),
        authentication_results=_safely(
            lambda: tuple(
                (position, str(value))
                for position, (name, value) in enumerate(message.items())
                if name.lower() == "authentication-results"
            ),
            (),
        ),
    )


def _orders_or_commands(texts: MailTexts, subject: str) -> dict[str, Any]:
    # The host's `APPROVE <game> <phase>` line counts even when the mail also holds a
    # block (the quoted draft mail, with its form): only the host's address acts on it.
    approval = find_approval(texts.body)
    scan = find_blocks([texts.body, *texts.attachments])
    if not scan.filled and texts.html:
        # The plain part holds no filled-in block: some programs (Apple Mail among them)
        # put only the quote there and the player's form in the HTML part.
        in_html = find_blocks([texts.html])
        if in_html.filled:
            scan = in_html
    if scan.found_anything:
        return dict(
            blocks=scan.blocks,
            messages=scan.messages,
            free_text=scan.free_text,
            stray=scan.stray,
            problems=scan.problems,
            commands=(approval,) if approval else (),
        )
    command = approval or find_command(texts.body, subject)
    return dict(commands=(command,) if command else (), free_text=scan.free_text, stray=scan.stray)


def _with_signup(found: dict[str, Any], body: str, subject: str) -> dict[str, Any]:
    """A mail with no block and no approval may be a sign-up command (pbp.mail.signup_words:
    JOIN, LEAVE, WATCH, UNWATCH, CONFIRM), which goes before the player commands."""
    if "blocks" in found or any(
        command.startswith("APPROVE") for command in found.get("commands", ())
    ):
        return found
    signup = find_signup(body, subject)
    return {**found, "commands": (signup,)} if signup else found


def _safely(read: Callable[[], Read], fallback: Fallback) -> Read | Fallback:
    """One header read that must not stop the rest of the parse."""
    try:
        return read()
    except Exception:  # one broken header must not stop the parse of the rest
        return fallback


def parse_message(raw: RawMail) -> Message:
    """The tolerant stdlib parse of a raw mail (for callers that need other headers)."""
    return _parse(raw.data)
