"""The ledger of inbound mail (docs/design.md: Reliability rules): which mails were handled
and how, so that a mail fetched again after a crash, or delivered twice, is never answered
twice. A mail is known by its server key, its bytes (SHA-256), and its Message-ID together
with its sender. The desk and the host's approval mail both write through it."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from pbp.timezones import to_text
from pbp.ports import InboundMail, Outcome
from pbp.storage.datafolder import DataFolder, GameFile
from pbp.storage.journal import Rows
from pbp.storage.open_games import outbox_files
from pbp.storage.strangers import StrangerLog


def _keys(row: Mapping[str, Any]) -> Iterator[str]:
    yield f"k:{row['key']}"
    yield f"s:{row['sha256']}"
    if row.get("message_id"):
        yield f"m:{row.get('sender', '')} {row['message_id']}"


class _GamesMail:
    """The outcomes of the mail the games' files hold, read from their journals and kept
    from one cycle of `pbp run` to the next: a game's journaled rows are handed from writer
    to writer as one object (pbp.storage.game_storage), and mail rows are only ever inserted, so a
    later cycle reads only the rows inserted since. A game whose rows are another object
    (read again after a failed commit) makes the whole index be read again."""

    def __init__(self) -> None:
        self.outcomes: dict[str, Outcome] = {}
        self._read: dict[
            str, tuple[Rows, int]
        ] = {}  # game id -> (its rows, the last mail row read)

    def catch_up(self, folder: DataFolder) -> bool:
        """Read what the games' journals gained since; False when the index must be read whole."""
        for game in folder.games():
            last_id = 0
            known = self._read.get(game.id)
            if known is not None:
                rows, last_id = known
            now, newer = game.mails.rows_after(last_id)
            if known is not None and now is not rows:
                return False
            for row in newer:
                for key in _keys(row):
                    self.outcomes[key] = row["outcome"]
            self._read[game.id] = (now, next(reversed(now.get("mails", {})), 0))
        return True


# The games' part of each data folder's ledger kept by this process, by data folder.
_games_mail: dict[Path, _GamesMail] = {}


class MailLedger:
    """The handled mail: the games' (kept from cycle to cycle, `_GamesMail`) and the rest
    (the registry's rows, the strangers' summary, sign-ups' files, and the rows this cycle
    wrote), read once per ledger."""

    def __init__(self, folder: DataFolder, clock: Callable[[], datetime]):
        self.folder = folder
        self.clock = clock
        self._handled: dict[str, Outcome] | None = (
            None  # "k:<key>", "s:<sha>", "m:<sender> <msgid>"
        )
        self._games: _GamesMail | None = None

    def _index(self) -> dict[str, Outcome]:
        if self._handled is None:
            self._handled = {}
            rows: list[Mapping[str, Any]] = [
                *self.folder.mails.all(),
                *StrangerLog(self.folder).recent_rows(),
            ]
            for _key, file in outbox_files(self.folder):  # mail about games open for sign-ups
                rows.extend(file.mails.each())
            for row in rows:
                self.remember(row)
        return self._handled

    def _in_games(self) -> dict[str, Outcome]:
        if self._games is None:
            games = _games_mail.get(self.folder.path)
            if games is None or not games.catch_up(self.folder):
                games = _games_mail[self.folder.path] = _GamesMail()
                games.catch_up(self.folder)
            self._games = games
        return self._games.outcomes

    def _outcome(self, key: str) -> Outcome | None:
        return self._index().get(key) or self._in_games().get(key)

    def remember(self, row: Mapping[str, Any]) -> None:
        """Note a row once it is durably written (the caller's transaction is over)."""
        index = self._index()
        for key in _keys(row):
            index[key] = row["outcome"]

    def forget(self) -> None:
        """Read the ledger again from storage (a batch that failed may have been remembered)."""
        self._handled = self._games = None

    def already_handled(self, key: str, sha256: str) -> Outcome | None:
        return self._outcome(f"k:{key}") or self._outcome(f"s:{sha256}")

    def knows_key(self, key: str) -> bool:
        return self._outcome(f"k:{key}") is not None

    def earlier(self, mail: InboundMail) -> Outcome | None:
        """The outcome of this mail if it was handled before: the same message on the server
        (key), the same bytes (SHA-256), or the same Message-ID from the same sender (one
        mail delivered twice, each copy with its own trace headers). A Message-ID counts
        only with its sender: another address that reuses it is judged on its own."""
        earlier = self.already_handled(mail.key, mail.sha256)
        if earlier is None and mail.message_id:
            earlier = self._outcome(f"m:{mail.sender or ''} {mail.message_id}")
        return earlier

    def row(self, mail: InboundMail, outcome: Outcome, reason: str) -> dict[str, Any]:
        """The ledger's row for a mail; write it with `record` inside the game's transaction."""
        return {
            "key": mail.key,
            "sha256": mail.sha256,
            "message_id": mail.message_id,
            "sender": mail.sender or "",
            "subject": mail.subject[:200],
            "outcome": outcome,
            "reason": reason,
            "received": to_text(self.clock()),
        }

    def record(
        self,
        file: GameFile,
        mail: InboundMail,
        outcome: Outcome,
        reason: str,
        judged: Sequence[str] = (),
        refused_by: Sequence[str] = (),
    ) -> dict[str, Any]:
        """Write the mail's row into a game's file (inside the caller's transaction); call
        `remember` with it once the transaction is over. `judged` names the order blocks
        the mail had judged (pbp.desk.choice.judged_entry), `refused_by` the desk's rules
        that refused a part of it (docs/design.md: The desk's rules), kept with it."""
        row = self.row(mail, outcome, reason)
        if judged:
            row["judged"] = list(judged)
        if refused_by:
            row["refused_by"] = list(refused_by)
        file.mails.insert(row)
        return row

    def record_refused(
        self, mail: InboundMail, reason: str, file: GameFile | None = None
    ) -> Outcome:
        """A refused mail, in its own durable write: in a game's file, or, belonging to no
        game, counted in the bounded summary of strangers (pbp.storage.strangers)."""
        row = self.row(mail, "rejected", reason)
        if file is None:
            StrangerLog(self.folder).note(row)
        else:
            with file.transaction():
                file.mails.insert(row)
        self.remember(row)
        return "rejected"

    def record_quarantine(
        self,
        key: str,
        sha256: str,
        sender: str,
        subject: str,
        reason: str,
        stranger_address: str = "",
    ) -> None:
        """Note a mail the ingest quarantined, once per message key; a stranger's (given
        its address) is only counted in the bounded summary."""
        if self.knows_key(key):
            return
        row = {
            "key": key,
            "sha256": sha256,
            "message_id": "",
            "sender": sender or "",
            "subject": subject[:200],
            "outcome": "quarantine",
            "reason": reason,
            "received": to_text(self.clock()),
        }
        if stranger_address:
            row["sender"] = stranger_address
            StrangerLog(self.folder).note(row)
        else:
            self.folder.mails.insert(row)
        self.remember(row)
