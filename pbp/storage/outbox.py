"""The outbox (docs/design.md: Reliability rules, Outbox; Typed rows): the ledger of every
mail pbp sends, kept in each game's file. The storage keeps the queue
(pbp.storage.outbox_queue); sending it is the daemon's job (pbp.daemon.outbox_sending), so
nothing here talks to a mail server.

Outside the storage a row is read as an `OutboxRow`, made by `from_row` at this edge; the
stored row keeps its keys (`to_row` gives them back unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from pbp.storage.datafolder import GameFile
from pbp.storage.outbox_queue import FAILED, QUEUED, SENT, OutboxQueue

KNOWN = frozenset(
    {
        "game",
        "phase",
        "recipient",
        "address",
        "kind",
        "sequence",
        "message_id",
        "subject",
        "body",
        "in_reply_to",
        "references",
        "status",
        "attempts",
        "next_attempt",
        "error",
        "created",
        "sent",
    }
)


class Outbox(OutboxQueue):
    """A data folder's outbox: rows queued, and the rows not yet sent."""


@dataclass(frozen=True)
class OutboxRow:
    """One mail of the ledger: to whom, why (kind, phase), its text and how sending went.
    A brief (a scan of the whole ledger) has no subject and body: they read "" there."""

    game: str
    phase: str
    recipient: str
    address: str
    kind: str
    sequence: int
    message_id: str
    status: str
    subject: str = ""
    body: str = ""
    in_reply_to: str = ""  # the Message-ID the mail answers, if any
    references: tuple[str, ...] = ()  # its thread's latest Message-IDs
    attempts: int = 0
    next_attempt: str = ""  # when a transient failure is tried again ("" for now)
    error: str = ""
    created: str = ""
    sent: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)  # attachments, sequence_of

    @property
    def attachments(self) -> list[tuple[str, str, str]]:
        """(file name, content type, text) of each file the mail carries."""
        return [
            (a["filename"], a["content_type"], a["text"]) for a in self.extra.get("attachments", ())
        ]

    @property
    def queued(self) -> bool:
        return self.status == QUEUED

    @property
    def failed(self) -> bool:
        return self.status == FAILED

    @property
    def was_sent(self) -> bool:
        return self.status == SENT

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> OutboxRow:
        return cls(
            row.get("game", ""),
            row.get("phase", ""),
            row.get("recipient", ""),
            row.get("address", ""),
            row.get("kind", ""),
            row.get("sequence", 0),
            row.get("message_id", ""),
            row.get("status", ""),
            row.get("subject", ""),
            row.get("body", ""),
            row.get("in_reply_to", ""),
            tuple(row.get("references", ())),
            row.get("attempts", 0),
            row.get("next_attempt", ""),
            row.get("error", ""),
            row.get("created", ""),
            row.get("sent", ""),
            {key: value for key, value in row.items() if key not in KNOWN},
        )

    def to_row(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "phase": self.phase,
            "recipient": self.recipient,
            "address": self.address,
            "kind": self.kind,
            "sequence": self.sequence,
            "message_id": self.message_id,
            "subject": self.subject,
            "body": self.body,
            "in_reply_to": self.in_reply_to,
            "references": list(self.references),
            "status": self.status,
            "attempts": self.attempts,
            "next_attempt": self.next_attempt,
            "error": self.error,
            "created": self.created,
            "sent": self.sent,
            **self.extra,
        }


def outbox_rows(file: GameFile) -> list[OutboxRow]:
    """Every row of a file's outbox, texts and all, oldest first."""
    return [OutboxRow.from_row(row) for row in file.outbox.all()]


def outbox_briefs(
    file: GameFile, where: Callable[[Mapping[str, Any]], Any] | None = None
) -> list[OutboxRow]:
    """The rows of a file's outbox without their texts (a cheap scan), those `where` keeps."""
    return [OutboxRow.from_row(row) for row in file.outbox.briefs(where)]
