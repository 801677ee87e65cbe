"""The outbox ledger (docs/design.md: Reliability rules, Outbox).

Every mail pbp sends is first a row in its game's file — game, phase, recipient, kind, a
deterministic Message-ID, the rendered text — written in the same durable write as the
change that caused it (an accepted order, a resolution). Sending comes later: one message
per recipient through a `MailSender`, each success marked in its own durable write, so a
restart resends only the rows not yet marked. Transient failures are retried with
exponential backoff (the next attempt's time is stored in the row); permanent failures are
recorded and shown by `pbp status`.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Callable, Sequence

from pbp import schedule
from pbp.crashpoints import crash_point
from pbp.limits import MAX_REFERENCES
from pbp.mail.compose import compose
from pbp.ports import MailSender, PermanentSendError, TransientSendError
from pbp.rendering import RenderedMail
from pbp.store import DataFolder, GameFile

QUEUED, SENT, FAILED = "queued", "sent", "failed"
FIRST_RETRY = timedelta(seconds=30)
LONGEST_RETRY = timedelta(hours=1)
# Kinds that are reports on a resolution rather than answers to a player's mail.
GENERATED_KINDS = ("welcome", "report")


def message_id(game: str, phase: str, recipient: str, kind: str, sequence: int, domain: str) -> str:
    """Deterministic: the same ledger row always carries the same Message-ID, so a mail
    sent again after a crash is recognisably the same mail."""
    safe = lambda text: re.sub(r"[^A-Za-z0-9_.-]", "-", text)  # noqa: E731
    digest = hashlib.sha256(f"{game}|{phase}|{recipient}|{kind}|{sequence}".encode()).hexdigest()[:10]
    return f"<pbp.{safe(game)}.{safe(phase)}.{safe(kind)}.{sequence}.{digest}@{domain}>"


def backoff(attempts: int) -> timedelta:
    """30 s after the first failure, doubling, at most an hour."""
    return min(FIRST_RETRY * (2 ** max(attempts - 1, 0)), LONGEST_RETRY)


@dataclass
class SendSummary:
    sent: int = 0
    retrying: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)


class Outbox:
    def __init__(self, folder: DataFolder, from_address: str, from_name: str = "pbp moderator",
                 clock: Callable[[], datetime] = schedule.now):
        self.folder = folder
        self.from_address = from_address
        self.from_name = from_name
        self.domain = from_address.rpartition("@")[2] or "localhost"
        self.clock = clock
        # Unsent row ids per game, found by one scan at start-up and kept up to date, so an
        # idle poll does not rescan a ledger that grows with every mail ever sent.
        self._unsent: dict[str, set[int]] | None = None

    # ------------------------------------------------------------------ queueing
    def queue(self, game: GameFile, *, phase: str, recipient: str, address: str, kind: str,
              mail: RenderedMail, in_reply_to: str = "", references: Sequence[str] = ()) -> dict:
        """Add one row (call inside the game's transaction, with the change it belongs to)."""
        record = game.record()
        sequence = record.get("outbox_sequence", 0) + 1
        game.update_record({"outbox_sequence": sequence})
        row = {
            "game": game.id,
            "phase": phase,
            "recipient": recipient,
            "address": address,
            "kind": kind,
            "sequence": sequence,
            "message_id": message_id(game.id, phase, recipient, kind, sequence, self.domain),
            "subject": mail.subject,
            "body": mail.body,
            "in_reply_to": in_reply_to,
            "references": list(references)[-MAX_REFERENCES:],  # the thread's latest, as mail clients trim
            "status": QUEUED,
            "attempts": 0,
            "next_attempt": "",
            "error": "",
            "created": schedule.to_text(self.clock()),
            "sent": "",
        }
        doc_id = game.outbox.insert(row)
        if self._unsent is not None:
            self._unsent.setdefault(game.id, set()).add(doc_id)
        return row

    # ------------------------------------------------------------------ sending
    def build(self, row: dict) -> EmailMessage:
        return compose(
            sender=(self.from_name, self.from_address),
            recipient=(row["recipient"], row["address"]),
            subject=row["subject"],
            body=row["body"],
            message_id=row["message_id"],
            in_reply_to=row["in_reply_to"] or None,
            references=row["references"][-10:],
            auto="auto-generated" if row["kind"] in GENERATED_KINDS else "auto-replied",
            date=self.clock(),
        )

    def _scan(self) -> dict[str, set[int]]:
        if self._unsent is None:
            self._unsent = {}
            for game in self.folder.games():
                ids = {doc.doc_id for doc in game.outbox.all() if doc["status"] == QUEUED}
                self._unsent[game.id] = ids
        return self._unsent

    def pending(self) -> int:
        return sum(len(ids) for ids in self._scan().values())

    def next_attempt(self) -> datetime | None:
        """When the earliest row waiting for a retry is due (for the daemon's alarm)."""
        times = []
        for game_id, ids in self._scan().items():
            game = self.folder.game(game_id)
            for doc_id in ids:
                row = game.outbox.get(doc_id=doc_id)
                if row and row["next_attempt"]:
                    times.append(schedule.from_text(row["next_attempt"]))
        return min(times) if times else None

    def send_due(self, sender: MailSender) -> SendSummary:
        """Send every queued row whose time has come, oldest first, marking each."""
        summary = SendSummary()
        now = self.clock()
        for game_id, ids in list(self._scan().items()):
            try:
                game = self.folder.game(game_id)
                for doc_id in sorted(ids):
                    row = game.outbox.get(doc_id=doc_id)
                    if row is None or row["status"] != QUEUED:
                        ids.discard(doc_id)
                        continue
                    if row["next_attempt"] and schedule.from_text(row["next_attempt"]) > now:
                        continue
                    self._send_one(game, doc_id, row, sender, summary, now)
            except Exception as error:  # one unreadable game file must not hold up the others' mail
                summary.errors.append(f"game {game_id}: its outbox could not be read: {type(error).__name__}: {error}")
        return summary

    def _send_one(self, game: GameFile, doc_id: int, row: dict, sender: MailSender,
                  summary: SendSummary, now: datetime) -> None:
        """Send one row and mark it. A row that cannot even be made into a mail, or that
        the sender fails on in a way it does not class, is marked failed at once: one bad
        row is shown to the host and never stops the rows after it."""
        attempts = row.get("attempts", 0) + 1
        try:
            message = self.build(row)
        except Exception as error:  # a row that cannot be built is shown to the host and never stops the rows after it
            self._fail(game, doc_id, row, attempts, f"the mail could not be built: {type(error).__name__}: {error}",
                       summary)
            return
        try:
            sender.send(message)
        except TransientSendError as error:
            game.outbox.update({"attempts": attempts, "error": str(error),
                                "next_attempt": schedule.to_text(now + backoff(attempts))}, doc_ids=[doc_id])
            summary.retrying += 1
            summary.errors.append(f"{row['message_id']}: {error}")
            return
        except PermanentSendError as error:
            self._fail(game, doc_id, row, attempts, str(error), summary)
            return
        except Exception as error:  # any sending failure is a retry with backoff, never a stop of the rows after it
            self._fail(game, doc_id, row, attempts, f"sending failed: {type(error).__name__}: {error}", summary)
            return
        game.outbox.update({"attempts": attempts, "status": SENT, "error": "",
                            "sent": schedule.to_text(self.clock())}, doc_ids=[doc_id])
        self._unsent[game.id].discard(doc_id)
        summary.sent += 1
        if row["kind"] == "report":
            crash_point("mid-send")

    def _fail(self, game: GameFile, doc_id: int, row: dict, attempts: int, error: str, summary: SendSummary) -> None:
        game.outbox.update({"attempts": attempts, "status": FAILED, "error": error}, doc_ids=[doc_id])
        self._unsent[game.id].discard(doc_id)
        summary.failed += 1
        summary.errors.append(f"{row.get('message_id', '(no Message-ID)')}: {error}")
