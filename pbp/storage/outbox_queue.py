"""Queueing mail in the outbox ledger (docs/design.md: Reliability rules, Outbox): each
row is written in the same durable write as the change that caused it, and carries a
deterministic Message-ID. Which rows are still unsent is kept here too, for the sending
loop (pbp.daemon.outbox_sending) and the daemon's alarm.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import datetime
from typing import Any, Callable, Iterator, Sequence

from pbp import schedule
from pbp.timezones import to_text
from pbp.mail.limits import MAX_REFERENCES
from pbp.ports import RenderedMail
from pbp.storage.datafolder import DataFolder, GameFile
from pbp.storage.open_games import FOLDER, OUTBOX_PREFIX, open_game, outbox_files

# A row's status: queued until the server accepts it (sent) or refuses it for good (failed).
QUEUED, SENT, FAILED = "queued", "sent", "failed"
# The sequence the players' mail is numbered in (per address, inside its Message-IDs); mail
# to people outside the game has sequences of its own.
PLAYERS_SEQUENCE = "outbox_sequence"


_NOT_IN_MESSAGE_ID = re.compile(r"[^A-Za-z0-9_.-]")
DIGEST_CHARS = 20  # hex digits of the keyed hash in a Message-ID (80 bits)


def message_id(
    secret: str,
    game: str,
    phase: str,
    kind: str,
    address: str,
    sequence_of: str,
    sequence: int,
    domain: str,
) -> str:
    """Deterministic: the same ledger row always carries the same Message-ID, so a mail
    sent again after a crash is recognisably the same mail. Its only number is a keyed
    hash (the game's `secret`) of the recipient's address and the row's place among that
    address's mail: nothing in it depends on mail to anyone else, and nobody without the
    secret can make one (a forged delivery report cannot quote a mail it never saw)."""

    def safe(text: str) -> str:
        return _NOT_IN_MESSAGE_ID.sub("-", text)

    keyed = hmac.new(
        secret.encode(),
        f"{game}|{phase}|{kind}|{address}|{sequence_of}|{sequence}".encode(),
        hashlib.sha256,
    )
    return (
        f"<pbp.{safe(game)}.{safe(phase)}.{safe(kind)}.{keyed.hexdigest()[:DIGEST_CHARS]}@{domain}>"
    )


def message_secret(file: GameFile) -> str:
    """The key of a file's Message-IDs: the game's seed, which deals its roles and is its
    host's alone; an open game (whose seed may be unset) draws one of its own, once, and
    its file's ids are keyed apart from those of the game it becomes. Call inside the
    file's transaction."""
    record = file.record()
    secret = record.get("message_key") or record.get("seed")
    if not secret:
        secret = secrets.token_hex(16)
        file.update_record({"message_key": secret})
    return f"{FOLDER}|{secret}" if file.path.parent.name == FOLDER else str(secret)


class OutboxQueue:
    """The ledger's side of the outbox: rows queued, and the rows not yet sent."""

    def __init__(
        self,
        folder: DataFolder,
        from_address: str,
        from_name: str = "pbp moderator",
        clock: Callable[[], datetime] = schedule.now,
    ):
        self.folder = folder
        self.from_address = from_address
        self.from_name = from_name
        self.domain = from_address.rpartition("@")[2] or "localhost"
        self.clock = clock
        # Unsent row ids per game, found by one scan at start-up and kept up to date, so an
        # idle poll does not rescan a ledger that grows with every mail ever sent.
        self._unsent: dict[str, set[int]] | None = None

    def queue(
        self,
        game: GameFile,
        *,
        phase: str,
        recipient: str,
        address: str,
        kind: str,
        mail: RenderedMail,
        in_reply_to: str = "",
        references: Sequence[str] = (),
        sequence_key: str = PLAYERS_SEQUENCE,
    ) -> dict[str, Any]:
        """Add one row (call inside the game's transaction, with the change it belongs to).
        Its Message-ID counts the mail to the same address only, in the sequence
        `sequence_key`: mail to people outside the game (spectators, sign-ups) counts in a
        sequence of its own, so a player's mail reads the same with or without them."""
        sequence = 1 + game.outbox.count_where(
            "address", address, lambda row: row.get("sequence_of", PLAYERS_SEQUENCE) == sequence_key
        )
        row = {
            "game": game.id,
            "phase": phase,
            "recipient": recipient,
            "address": address,
            "kind": kind,
            "sequence": sequence,
            **({"sequence_of": sequence_key} if sequence_key != PLAYERS_SEQUENCE else {}),
            "message_id": self._message_id(game, phase, kind, address, sequence_key, sequence),
            "subject": mail.subject,
            "body": mail.body,
            "in_reply_to": in_reply_to,
            # the thread's latest, as mail clients trim
            "references": list(references)[-MAX_REFERENCES:],
            "status": QUEUED,
            "attempts": 0,
            "next_attempt": "",
            "error": "",
            "created": to_text(self.clock()),
            "sent": "",
            **_attachments_part(mail),
        }
        doc_id = game.outbox.insert(row)
        if self._unsent is not None:
            key = game.id if game.path.parent.name != FOLDER else OUTBOX_PREFIX + game.id
            self._unsent.setdefault(key, set()).add(doc_id)
        return row

    def _message_id(
        self, game: GameFile, phase: str, kind: str, address: str, sequence_key: str, sequence: int
    ) -> str:
        """The Message-ID of the `sequence`th mail to `address` in `sequence_key`
        (message_id), under the game's own secret and this outbox's domain."""
        return message_id(
            message_secret(game), game.id, phase, kind, address, sequence_key, sequence, self.domain
        )

    def _files(self) -> Iterator[tuple[str, GameFile]]:
        """(key, file) of every file with an outbox that may hold unsent mail: the games the
        index of deadlines names (pbp.storage.game_index), then the games open for sign-ups
        (pbp.storage.open_games), whose keys cannot clash with a game's id."""
        for game_id in self.folder.index.games(self.folder.game_ids(), flag="unsent"):
            yield game_id, self.folder.game(game_id)
        yield from outbox_files(self.folder)

    def file_of(self, key: str) -> GameFile:
        """The file a key of `unsent_by_file` names."""
        if key.startswith(OUTBOX_PREFIX):
            return open_game(self.folder, key[len(OUTBOX_PREFIX) :]).file
        return self.folder.game(key)

    def unsent_by_file(self) -> dict[str, set[int]]:
        """The ids of the unsent rows, by file key; the sending loop takes the ids it
        settles out of these very sets."""
        if self._unsent is None:
            self._unsent = {}
            for key, game in self._files():
                self._unsent[key] = {doc.doc_id for doc in game.outbox.where("status", QUEUED)}
        return self._unsent

    def pending(self) -> int:
        return sum(len(ids) for ids in self.unsent_by_file().values())


def _attachments_part(mail: RenderedMail) -> dict[str, Any]:
    """The outbox row's `attachments`, for a mail that carries one: only those rows have
    the key, so other rows keep their shape."""
    if not mail.attachments:
        return {}
    return {
        "attachments": [
            {"filename": a.filename, "content_type": a.content_type, "text": a.text}
            for a in mail.attachments
        ]
    }
