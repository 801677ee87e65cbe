"""The small adapter interfaces between pbp's pipeline and the outside world.

The pipeline imports only these; `ImapMailbox` / `MaildirMailbox` and `SmtpSender` /
`MaildirSender` implement them (pbp.mail). Unit tests may use in-memory versions;
integration tests run the real ones against Dovecot and aiosmtpd.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from typing import Callable, ContextManager, Literal, Protocol

from engine.errors import Wording

Outcome = Literal["processed", "rejected", "quarantine"]


@dataclass(frozen=True)
class RawMail:
    """One inbound message as fetched, before any parsing.

    `key` identifies it on its server and is stable across restarts: for IMAP
    `"<uidvalidity>:<uid>"`, for a Maildir its file key. `sha256` is of `data`.
    """

    key: str
    data: bytes
    sha256: str


@dataclass(frozen=True)
class OversizedMail:
    """A message whose size (checked before download) is over the limit: not fetched."""

    key: str
    size: int
    sender: str  # the envelope / header From as the server reports it, may be ""


class Mailbox(Protocol):
    def fetch_new(self, limit: int) -> list[RawMail | OversizedMail]:
        """Unsettled messages in the inbox, oldest first, without marking them seen."""

    def settle(self, key: str, outcome: Outcome) -> None:
        """Move one message out of the inbox once its result is committed (idempotent:
        settling a message that is already gone does nothing)."""

    def settle_many(self, keys: list[str], outcome: Outcome) -> None:
        """Settle several messages with one outcome, in one move where the server allows
        (the messages of a committed batch); idempotent like `settle`."""

    def close(self) -> None: ...


class TransientSendError(Exception):
    """Sending failed in a way worth retrying later (4xx, connection refused, timeout)."""


class PermanentSendError(Exception):
    """Sending failed for good (5xx, bad recipient); the host is shown the reason."""


class MailSender(Protocol):
    def send(self, message: EmailMessage) -> None:
        """Deliver one message (one recipient) or raise Transient/PermanentSendError.
        Consecutive sends may share one connection, opened by the first of them."""

    def send_when(
        self, message: EmailMessage, ready: Callable[[], None], meanwhile: Callable[[], None]
    ) -> None:
        """`send`, calling `ready` before the message can be accepted (the outbox's previous
        mark must be on disk first: what `ready` raises goes on as it is, the message
        unsent) and `meanwhile` while it is on its way. A sender that cannot wait inside the
        sending, as this default, calls `ready` first; the SMTP sender waits just before
        the end of the data, so the mark's sync overlaps the sending (pbp.mail.smtp)."""
        ready()
        self.send(message)
        meanwhile()

    def prepare(self, message: EmailMessage) -> None:
        """Do ahead of time what sending `message` needs and the server has no part in; the
        outbox calls it for the next mail while the server considers the one before (in
        `meanwhile`). It should not raise: trouble shows when the message is sent (the
        outbox ignores what it raises and sends the message all the same). This default
        does nothing."""
        return None

    def close(self) -> None:
        """End the batch: close the connection, if any (the next send opens a new one)."""


# --------------------------------------------------------------------------- outgoing mail
@dataclass(frozen=True)
class Attachment:
    filename: str
    content_type: str  # e.g. "image/svg+xml"
    text: str


@dataclass(frozen=True)
class RenderedMail:
    """A mail as a template made it: what the outbox queues and the mail side composes."""

    subject: str
    body: str
    attachments: tuple[Attachment, ...] = ()


# --------------------------------------------------------------------------- parsed inbound mail
@dataclass(frozen=True)
class OrderBlock:
    """One `BEGIN ORDERS … END ORDERS` block found in a mail (docs/design.md: Order mail format).

    `lines` are the order lines between the TOKEN line and END ORDERS, quote prefixes
    removed and text normalised; `first_line_number` is the number of `lines[0]` counting
    the BEGIN line as line 1, so an error can say "Line 3". `token` is None when the block
    has no TOKEN line. `quoted` says the block was found only in quoted text (a form
    filled in inside the quote, the player's lines unquoted, is the player's own: not
    `quoted`).
    """

    game: str
    phase: str
    token: str | None
    lines: tuple[str, ...]
    first_line_number: int = 3
    quoted: bool = False
    at_line: int = 0  # the BEGIN line's number in the mail's text (0: not known)

    @property
    def has_orders(self) -> bool:
        """False for a form sent back untouched: only blanks and `#` comments."""
        return any(line.strip() and not line.lstrip().startswith("#") for line in self.lines)


@dataclass(frozen=True)
class MessageBlock:
    """One `BEGIN MESSAGE <game> <channel> … END MESSAGE` block (docs/design.md:
    Conversations): `text` is the lines after the TOKEN line, quote prefixes removed, text
    normalised, `#` comment lines dropped (the form's hints), surrounding blank lines cut.
    An empty `text` is a message form sent back unfilled. `speaker` is the character a
    block names after the channel (only the host may: an NPC it plays), else ""."""

    game: str
    channel: str
    token: str | None
    text: str
    quoted: bool = False
    speaker: str = ""


@dataclass(frozen=True)
class Bounce:
    """What a delivery status notification reports (pbp.mail.delivery_status)."""

    addresses: tuple[str, ...]  # the recipients that failed for good, lower-cased
    original_ids: tuple[str, ...] = ()  # Message-IDs of the returned mail


@dataclass(frozen=True)
class InboundMail:
    """What the mail side hands to the game side for one message.

    `sender` is the single address in From, lower-cased, or None when From does not hold
    exactly one address. `no_reply_reason` is set when the loop rules forbid any answer
    (Auto-Submitted, Precedence, List-Id, empty return path, MAILER-DAEMON, our own
    address). `commands` are player commands (HELP, FORM, STATUS, or an unknown word)
    found when the mail has no block; an `APPROVE <game> <phase> [<token>]` line (the host's
    approval by mail, token from the line or a `TOKEN:` line) is found even next to blocks.
    `messages` are the mail's message blocks (read by the same scanner, under the same
    per-mail cap); `free_text` says the player wrote something outside any block (which
    nobody reads: the receipt says so and how to reach the host), and `stray` holds the
    first of those lines, so that the receipt can name the orders among them it did not take.
    `problems` lists what made the text unreadable
    (e.g. a BEGIN with no END) for the reply. `bounce` is set when the mail is a
    delivery status notification reporting recipients that failed for good.
    `authentication_results` holds the mail's Authentication-Results headers, top first,
    each with its position among all header fields (pbp.mail.sender_auth reads them).
    """

    key: str
    sha256: str
    sender: str | None
    message_id: str
    subject: str
    references: tuple[str, ...] = ()
    no_reply_reason: str | None = None
    blocks: tuple[OrderBlock, ...] = ()
    messages: tuple[MessageBlock, ...] = ()
    free_text: bool = False
    stray: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    problems: tuple[str | Wording, ...] = ()  # Wordings worded in the reader's language
    bounce: Bounce | None = None
    authentication_results: tuple[tuple[int, str], ...] = ()


class OrderDesk(Protocol):
    """The game side of ingest (pbp.desk): judges one mail and records the result.

    `receive` commits, in one durable write, the accepted orders, the replies to queue in
    the outbox, and the mail's identity (key and sha256) as handled; it returns where the
    mail should be filed. Receiving a mail already handled changes nothing and returns its
    earlier outcome, so a crash between the commit and the move processes nothing twice.
    """

    def receive(self, mail: InboundMail) -> Outcome: ...

    def already_handled(self, key: str, sha256: str) -> Outcome | None: ...

    def get_ready(self) -> None:
        """Do now what judging the first mail would otherwise pay for: the ingest calls
        it while it waits for mail being read in another process."""

    def batch(self) -> ContextManager[None]:
        """Gather the `receive` calls made inside into one durable write per file (the
        ingest of a fetched batch), or none at all when the block raises; each mail still
        lands whole, so mail not recorded is simply received again."""
