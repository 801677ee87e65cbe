"""The durable spool of fetched mail (docs/design.md: Reliability rules — Ingest: "write the raw
message to a spool (temp file, fsync, rename; one durable write may cover a whole fetched
batch) before anything else"; "A message that crashes processing three times goes to
quarantine").

Layout of `<data>/spool/`:

    batch-<n>.spool   one fetched batch: per message a JSON header line
                      {"key", "sha256", "size"} then exactly `size` bytes and "\\n";
                      written to a temp file, fsync'd, renamed, folder fsync'd
    batch-<n>.done    "<sha256> <key>" lines of messages settled; the batch file goes
                      when all its messages are done
    claims/<sha256>-<key>  one byte appended before each processing attempt (a claim, as
                      in Mailman's switchboard); its size counts the attempts, including
                      attempts that killed the process
    batch-<n>.claims  the same claims for messages judged together
                      (pbp.mail.ingest.ingest_cycle): one "<sha256> <key>" line each, appended
                      in one write before the group's attempt, so a group costs one write
                      instead of one new file per message; a message's attempts are its claim
                      file's size plus its lines here

Claims and done marks are plain writes: they survive a killed process (the kernel keeps
them), which is what strike counting needs; only the mail itself must survive a power
cut, and that is fsync'd.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO
from urllib.parse import quote

from pbp.ports import RawMail
from pbp.durable import durable_write, open_private, private_folder


@dataclass(frozen=True)
class SpooledMail:
    """One spooled message and the batch file that holds it."""

    raw: RawMail
    batch: Path

    @property
    def identity(self) -> tuple[str, str]:
        return (self.raw.key, self.raw.sha256)


def _by_batch(entries: Iterable[SpooledMail]) -> dict[Path, list[SpooledMail]]:
    by_batch: dict[Path, list[SpooledMail]] = {}
    for entry in entries:
        by_batch.setdefault(entry.batch, []).append(entry)
    return by_batch


def _mark(line: str) -> tuple[str, str]:
    """A journal line `<sha256> <key>` as its two parts."""
    sha256, key = line.split(" ", 1)
    return sha256, key


def _append_marks(journal: Path, entries: list[SpooledMail]) -> None:
    """One append of a `<sha256> <key>` line per message (a batch's done or claim journal)."""
    with open_private(journal, "ab") as handle:
        handle.write("".join(f"{e.raw.sha256} {e.raw.key}\n" for e in entries).encode("utf-8"))


class Spool:
    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self.claims = self.root / "claims"
        private_folder(self.claims)
        self._sequence = 0
        # What each batch holds and which of its messages are done, kept in memory so
        # that marking a message done does not re-read its batch.
        self._members: dict[Path, set[tuple[str, str]]] = {}
        self._done: dict[Path, set[tuple[str, str]]] = {}
        self._batch_claims: dict[Path, dict[tuple[str, str], int]] = {}
        # Whether a message has a claim file, where known, to spare an unlink per message.
        self._has_claim_file: dict[tuple[str, str], bool] = {}
        # The names in claims/, listed once: only this process (the writer-lock holder)
        # adds or removes claim files, so the listing stays true, and a message with no
        # claim file (nearly every one) costs no stat.
        self._claim_files: set[str] | None = None

    # ------------------------------------------------------------------ batches
    def store(self, mails: list[RawMail]) -> list[SpooledMail]:
        """Write a fetched batch durably with one fsync; returns its spooled entries."""
        if not mails:
            return []
        self._sequence += 1
        name = f"batch-{time.time_ns():020d}-{os.getpid()}-{self._sequence}"
        temporary = self.root / f".{name}.tmp"
        final = self.root / f"{name}.spool"

        def write(handle: BinaryIO) -> None:
            for mail in mails:
                header = {"key": mail.key, "sha256": mail.sha256, "size": len(mail.data)}
                handle.write(json.dumps(header).encode("utf-8") + b"\n" + mail.data + b"\n")

        durable_write(temporary, final, write)
        self._members[final] = {(mail.sha256, mail.key) for mail in mails}
        self._done[final] = set()
        self._batch_claims[final] = {}
        return [SpooledMail(mail, final) for mail in mails]

    def pending(self) -> list[SpooledMail]:
        """Spooled messages not yet marked done, oldest batch first (crash leftovers)."""
        found: list[SpooledMail] = []
        for batch in sorted(self.root.glob("batch-*.spool")):
            done = self._done_marks(batch)
            members = _read_batch(batch)
            self._members[batch] = {(raw.sha256, raw.key) for raw in members}
            self._done[batch] = done
            self._batch_claims[batch] = _count_marks(_claims_path(batch))
            if self._members[batch] <= done:
                self._remove(batch)
                continue
            found += [
                SpooledMail(raw, batch) for raw in members if (raw.sha256, raw.key) not in done
            ]
        return found

    def mark_done(self, entry: SpooledMail) -> None:
        """Record that a message is settled; remove its batch once every message is."""
        self.mark_all_done([entry])

    def mark_all_done(self, entries: list[SpooledMail]) -> None:
        """`mark_done` for many messages, with one write per batch file."""
        for batch, settled in _by_batch(entries).items():
            _append_marks(_done_path(batch), settled)
            for entry in settled:
                if self._has_claim_file.pop(entry.identity, True):
                    self.clear_claims(entry.raw)
            done = self._done.setdefault(batch, self._done_marks(batch))
            done.update((e.raw.sha256, e.raw.key) for e in settled)
            members = self._members.get(batch)
            if members is None:
                members = self._members[batch] = {
                    (raw.sha256, raw.key) for raw in _read_batch(batch)
                }
            if members <= done:
                self._remove(batch)

    def _remove(self, batch: Path) -> None:
        batch.unlink(missing_ok=True)
        _done_path(batch).unlink(missing_ok=True)
        _claims_path(batch).unlink(missing_ok=True)
        self._members.pop(batch, None)
        self._done.pop(batch, None)
        self._batch_claims.pop(batch, None)

    def _done_marks(self, batch: Path) -> set[tuple[str, str]]:
        try:
            lines = _done_path(batch).read_text("utf-8").splitlines()
        except FileNotFoundError:
            return set()
        return {_mark(line) for line in lines if " " in line}

    # ------------------------------------------------------------------ claims (strikes)
    def _claim_path(self, raw: RawMail) -> Path:
        return self.claims / f"{raw.sha256}-{quote(raw.key, safe='')}"

    def attempts(self, raw: RawMail, batch: Path | None = None) -> int:
        """Attempts so far: the message's claim file, plus its claims in `batch`'s journal."""
        in_batch = 0
        if batch is not None:
            if batch not in self._batch_claims:
                self._batch_claims[batch] = _count_marks(_claims_path(batch))
            in_batch = self._batch_claims[batch].get((raw.sha256, raw.key), 0)
        size = 0
        names = self._claim_names()
        if (
            names
        ):  # nearly always empty: only mail judged alone has a claim file, until it is settled
            path = self._claim_path(raw)
            if path.name in names:
                try:
                    size = path.stat().st_size
                except FileNotFoundError:
                    pass
        self._has_claim_file[(raw.key, raw.sha256)] = size > 0
        return size + in_batch

    def _claim_names(self) -> set[str]:
        if self._claim_files is None:
            self._claim_files = set(os.listdir(self.claims))
        return self._claim_files

    def claim(self, raw: RawMail) -> None:
        """Count one processing attempt, before it starts."""
        path = self._claim_path(raw)
        self._claim_names().add(path.name)
        with open_private(path, "ab") as handle:
            handle.write(b"x")
        self._has_claim_file[(raw.key, raw.sha256)] = True

    def claim_together(self, entries: list[SpooledMail]) -> None:
        """Count one attempt for each of `entries`, about to be judged together, with one
        append per batch file to its claim journal (a plain write: it survives a killed
        process, which is all a strike count needs)."""
        for batch, claimed in _by_batch(entries).items():
            _append_marks(_claims_path(batch), claimed)
            counts = self._batch_claims.setdefault(batch, {})
            for entry in claimed:
                mark = (entry.raw.sha256, entry.raw.key)
                counts[mark] = counts.get(mark, 0) + 1

    def clear_claims(self, raw: RawMail) -> None:
        path = self._claim_path(raw)
        path.unlink(missing_ok=True)
        self._claim_names().discard(path.name)
        self._has_claim_file.pop((raw.key, raw.sha256), None)


def _done_path(batch: Path) -> Path:
    return batch.with_suffix(".done")


def _claims_path(batch: Path) -> Path:
    return batch.with_suffix(".claims")


def _count_marks(path: Path) -> dict[tuple[str, str], int]:
    """How often each "<sha256> <key>" line occurs in a journal; {} when there is none."""
    try:
        lines = path.read_text("utf-8").splitlines()
    except FileNotFoundError:
        return {}
    counts: dict[tuple[str, str], int] = {}
    for line in lines:
        if " " in line:
            mark = _mark(line)
            counts[mark] = counts.get(mark, 0) + 1
    return counts


def _read_batch(batch: Path) -> list[RawMail]:
    try:
        data = batch.read_bytes()
    except FileNotFoundError:
        return []
    mails: list[RawMail] = []
    position = 0
    while position < len(data):
        line_end = data.index(b"\n", position)
        header = json.loads(data[position:line_end])
        start = line_end + 1
        body = data[start : start + header["size"]]
        position = start + header["size"] + 1
        if hashlib.sha256(body).hexdigest() == header["sha256"]:
            mails.append(RawMail(key=header["key"], data=body, sha256=header["sha256"]))
    return mails
