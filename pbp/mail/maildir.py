"""The embedded mail transport (docs/design.md: Embedded default — "orders are read from, and
mail written to, local Maildir folders under the data folder (stdlib `mailbox`)").

Layout under the transport's mail folder (e.g. `<data>/mail/`):

    inbox/                 MaildirMailbox: orders arrive in new/ (or cur/)
    inbox/.processed/ …    settled messages (`.processed`, `.rejected`, `.quarantine`)
    outbox/                MaildirSender: a copy of every message sent
    <address>/             MaildirSender: what that recipient "received" (the demo's
                           scripted players read their own mail here)
"""

from __future__ import annotations

import hashlib
import mailbox
import os
import time
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from pathlib import Path

from pbp.ports import MailSender, OversizedMail, Outcome, PermanentSendError, RawMail
from pbp.durable import durable_write, fsync_folder, private_folder

_HEADER_SNIFF_BYTES = 64 * 1024
_OUTCOMES: tuple[Outcome, ...] = ("processed", "rejected", "quarantine")


def deliver(maildir: str | os.PathLike[str], data: bytes, name: str | None = None) -> Path:
    """Write one message into a Maildir's new/ durably (tmp file, fsync, rename, fsync of
    the folder). A given `name` makes a repeated delivery replace, not duplicate."""
    folder = Path(maildir)
    private_folder(folder.parent)
    mailbox.Maildir(folder, create=True)  # makes tmp/ new/ cur/
    name = name or f"{time.time_ns()}.{os.getpid()}.{hashlib.sha256(data).hexdigest()[:16]}"
    final = folder / "new" / name
    durable_write(folder / "tmp" / name, final, lambda handle: handle.write(data))
    return final


class MaildirMailbox:
    """`Mailbox` over a local Maildir. A message's key is its Maildir file name (before
    any `:2,` flags suffix), stable across restarts. Messages over `max_bytes` are
    reported as `OversizedMail` without being read. One poll reads at most
    `max_batch_bytes` (at least one message), as over IMAP."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        max_bytes: int | None = None,
        max_batch_bytes: int = 64 * 1024 * 1024,
    ) -> None:
        self.root = Path(root)
        self.max_bytes = max_bytes
        self.max_batch_bytes = max_batch_bytes
        private_folder(self.root.parent)
        self._maildir = mailbox.Maildir(self.root, create=True)

    def fetch_new(self, limit: int) -> list[RawMail | OversizedMail]:
        max_bytes = self.max_bytes
        found: list[RawMail | OversizedMail] = []
        spent = 0
        for path in self._inbox_files()[:limit]:
            key = path.name.split(":")[0]
            try:
                size = path.stat().st_size
                if max_bytes is not None and size > max_bytes:
                    found.append(OversizedMail(key=key, size=size, sender=_sniff_sender(path)))
                    continue
                if spent + size > self.max_batch_bytes and spent:
                    break  # the rest waits for the next poll
                data = path.read_bytes()
                spent += len(data)
            except FileNotFoundError:  # settled by someone else meanwhile
                continue
            found.append(RawMail(key=key, data=data, sha256=hashlib.sha256(data).hexdigest()))
        return found

    def _inbox_files(self) -> list[Path]:
        files = []
        for sub in ("new", "cur"):
            for entry in os.scandir(self.root / sub):
                if entry.is_file() and not entry.name.startswith("."):
                    files.append((entry.stat().st_mtime_ns, entry.name, Path(entry.path)))
        return [path for _mtime, _name, path in sorted(files)]

    def settle(self, key: str, outcome: Outcome) -> None:
        if outcome not in _OUTCOMES:
            raise ValueError(f"unknown outcome {outcome!r}")
        target = self._folder(outcome)
        for sub in ("new", "cur"):
            for entry in os.scandir(self.root / sub):
                if entry.name.split(":")[0] == key:
                    os.replace(entry.path, target / "cur" / entry.name)
                    fsync_folder(target / "cur")
                    fsync_folder(self.root / sub)
                    return

    def settle_many(self, keys: list[str], outcome: Outcome) -> None:
        """A Maildir moves one file at a time: each message settled in turn."""
        for key in keys:
            self.settle(key, outcome)

    def _folder(self, outcome: Outcome) -> Path:
        if outcome not in self._maildir.list_folders():
            self._maildir.add_folder(outcome)
        return self.root / f".{outcome}"

    def count(self, folder: str = "inbox") -> int:
        """Messages in the inbox or in one outcome folder (for status and tests)."""
        root = self.root if folder == "inbox" else self.root / f".{folder}"
        return sum(len(os.listdir(root / sub)) for sub in ("new", "cur") if (root / sub).is_dir())

    def close(self) -> None:
        self._maildir.close()


def _sniff_sender(path: Path) -> str:
    """The From address of a message, read from its first bytes only."""
    with open(path, "rb") as handle:
        head = handle.read(_HEADER_SNIFF_BYTES)
    headers = BytesHeaderParser().parsebytes(head)
    addresses = [
        address for _name, address in getaddresses(headers.get_all("From") or []) if address
    ]
    return addresses[0].lower() if addresses else ""


class MaildirSender(MailSender):
    """`MailSender` that writes each message to `<root>/outbox/` and into the
    recipient's own Maildir `<root>/<address>/`. Named after the Message-ID, so sending
    the same message again after a crash replaces the copy instead of adding one."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def send(self, message: EmailMessage) -> None:
        recipients = [
            address.lower()
            for _name, address in getaddresses(message.get_all("To") or [])
            if address
        ]
        if len(recipients) != 1 or "/" in recipients[0] or recipients[0].startswith("."):
            raise PermanentSendError(
                f"a message must have exactly one plain recipient, not {recipients!r}"
            )
        data = message.as_bytes()
        message_id = str(message.get("Message-ID", "")) or hashlib.sha256(data).hexdigest()
        name = hashlib.sha256(message_id.encode("utf-8")).hexdigest()[:32]
        deliver(self.root / "outbox", data, name)
        deliver(self.root / recipients[0], data, name)

    def close(self) -> None:
        """Nothing to release: every send is a complete file write."""
