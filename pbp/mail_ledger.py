"""The ledger of inbound mail (docs/design.md: Reliability rules): which mails were handled
and how, so that a mail fetched again after a crash, or delivered twice, is never answered
twice. A mail is known by its server key, its bytes (SHA-256), and its Message-ID together
with its sender. The desk and the host's approval mail both write through it."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Callable

from pbp import schedule
from pbp.ports import InboundMail, Outcome
from pbp.datafolder import DataFolder, GameFile
from pbp.signups.book import outbox_files
from pbp.strangers import StrangerLog


class MailLedger:
    def __init__(self, folder: DataFolder, clock: Callable[[], datetime]):
        self.folder = folder
        self.clock = clock
        self._handled: dict[str, Outcome] | None = None  # "k:<key>", "s:<sha>", "m:<sender> <msgid>"

    def _index(self) -> dict[str, Outcome]:
        if self._handled is None:
            self._handled = {}
            rows = list(self.folder.mails.all()) + StrangerLog(self.folder).recent_rows()
            for game in self.folder.games():
                rows.extend(game.mails.each())
            for _key, file in outbox_files(self.folder):  # mail about games open for sign-ups
                rows.extend(file.mails.each())
            for row in rows:
                self.remember(row)
        return self._handled

    def remember(self, row: dict[str, Any]) -> None:
        """Note a row once it is durably written (the caller's transaction is over)."""
        index = self._index()
        index[f"k:{row['key']}"] = row["outcome"]
        index[f"s:{row['sha256']}"] = row["outcome"]
        if row.get("message_id"):
            index[f"m:{row.get('sender', '')} {row['message_id']}"] = row["outcome"]

    def forget(self) -> None:
        """Read the ledger again from storage (a batch that failed may have been remembered)."""
        self._handled = None

    def already_handled(self, key: str, sha256: str) -> Outcome | None:
        index = self._index()
        return index.get(f"k:{key}") or index.get(f"s:{sha256}")

    def knows_key(self, key: str) -> bool:
        return f"k:{key}" in self._index()

    def earlier(self, mail: InboundMail) -> Outcome | None:
        """The outcome of this mail if it was handled before: the same message on the server
        (key), the same bytes (SHA-256), or the same Message-ID from the same sender (one
        mail delivered twice, each copy with its own trace headers). A Message-ID counts
        only with its sender: another address that reuses it is judged on its own."""
        earlier = self.already_handled(mail.key, mail.sha256)
        if earlier is None and mail.message_id:
            earlier = self._index().get(f"m:{mail.sender or ''} {mail.message_id}")
        return earlier

    def row(self, mail: InboundMail, outcome: Outcome, reason: str) -> dict[str, Any]:
        """The ledger's row for a mail; write it with `record` inside the game's transaction."""
        return {"key": mail.key, "sha256": mail.sha256, "message_id": mail.message_id,
                "sender": mail.sender or "", "subject": mail.subject[:200], "outcome": outcome,
                "reason": reason, "received": schedule.to_text(self.clock())}

    def record(self, file: GameFile, mail: InboundMail, outcome: Outcome, reason: str) -> dict[str, Any]:
        """Write the mail's row into a game's file (inside the caller's transaction); call
        `remember` with it once the transaction is over."""
        row = self.row(mail, outcome, reason)
        file.mails.insert(row)
        return row

    def record_refused(self, mail: InboundMail, reason: str, file: GameFile | None = None) -> Outcome:
        """A refused mail, in its own durable write: in a game's file, or, belonging to no
        game, counted in the bounded summary of strangers (pbp.strangers)."""
        row = self.row(mail, "rejected", reason)
        if file is None:
            StrangerLog(self.folder).note(row)
        else:
            with file.transaction():
                file.mails.insert(row)
        self.remember(row)
        return "rejected"

    def record_quarantine(self, key: str, sha256: str, sender: str, subject: str, reason: str,
                          stranger_address: str = "") -> None:
        """Note a mail the ingest quarantined, once per message key; a stranger's (given
        its address) is only counted in the bounded summary."""
        if self.knows_key(key):
            return
        row = {"key": key, "sha256": sha256, "message_id": "", "sender": sender or "",
               "subject": subject[:200], "outcome": "quarantine", "reason": reason,
               "received": schedule.to_text(self.clock())}
        if stranger_address:
            row["sender"] = stranger_address
            StrangerLog(self.folder).note(row)
        else:
            self.folder.mails.insert(row)
        self.remember(row)
