"""A game's journal: the tables that only grow, kept out of the game document
(docs/design.md: Storage).

The outbox (every mail's full text), the handled-mail ledger, the order log and the
per-day counts of replies and wrong tokens grow with every mail and every phase.
Rewriting them with the game document on every commit made each commit cost as much as
the game was long, so they live in `games/<id>.journal`, a file that is only ever
appended to: one line of JSON per commit, holding that commit's inserts and updates of
those tables. The writer keeps the tables in memory; a reader replays the file. The
mails' texts (an outbox row's body and attachments, most of what a game stores) go to a
third file, `games/<id>.texts`, also only appended to; the row in the journal keeps where
its text is, so a replay never reads the texts and a row's text is read when the row is.
This module owns the two files; the tables are read and changed through
pbp.storage.journal_table.

Crash safety (docs/design.md: Reliability rules — Storage). Every line carries the version
of the game document it belongs with, and the document carries its own version. A commit
that changes both appends its line (fsync) with the document's next version first, then
replaces the document (temp file, fsync, rename); a commit that changes only journaled
tables appends its line with the document's current version. A replay keeps the lines
whose version the document has reached and stops at the first line that is torn (a crash
during the append) or ahead of the document (a crash between the append and the document's
replacement): either way the commit never happened, and the writer cuts those bytes off
before it appends again. A commit's texts are written and fsynced before its line, so a
line never points at a text that is not there; the texts of a commit that never happened
are never pointed at.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Callable

from pbp.durable import fsync_folder, open_private

# The tables kept in the journal rather than in the game document.
JOURNALED = ("outbox", "mails", "orders", "replies", "wrong_tokens", "thread_posts", "messages")
# The fields of a journaled table kept in the texts file; the row keeps TEXT_AT instead.
TEXT_FIELDS = {"outbox": ("body", "attachments")}
TEXT_AT = "_text"

# The fields each journaled table is looked up by (pbp.storage.journal_table): the rows holding
# each value are kept as rows change, so a question such as "which mails are queued" or
# "which orders came this phase" costs the rows it finds, not the whole table (which only
# grows with the game). The outbox by address: each address's mail is counted for the
# Message-ID of the next (pbp.storage.outbox_queue). Mail by sender: a mail's ledger row
# names the order blocks it had judged (pbp.desk.choice). The thread's posts by post: a
# thread read looks each post up (pbp.forum.thread.thread_votes). The channels' messages by
# day: the daily cap counts a sender's messages of the day (pbp.conversations.judge).
LOOKUPS = {
    "outbox": ("status", "address"),
    "orders": ("phase", "player"),
    "replies": ("sender",),
    "wrong_tokens": ("sender",),
    "mails": ("sender",),
    "thread_posts": ("post",),
    "messages": ("day",),
}
Op = list[Any]  # ["i", table, doc_id, row] or ["u", table, [doc_ids], fields]


class Rows(dict[str, dict[int, dict[str, Any]]]):
    """The journaled tables (table -> doc id -> row) and their lookups (LOOKUPS: table ->
    field -> value -> doc ids), both changed only by `apply`."""

    def __init__(self) -> None:
        super().__init__()
        self.lookups: dict[str, dict[str, dict[Any, set[int]]]] = {}

    def ids_where(self, table: str, field: str, value: Any) -> set[int]:
        if field not in LOOKUPS.get(table, ()):
            raise KeyError(f"the {table} table is not looked up by {field}")
        return self.lookups.get(table, {}).get(field, {}).get(value, set())


# Compact UTF-8 JSON; the rows are plain trees (no cycle to check for), and one encoder
# serves every commit and every text rather than one made per call.
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def encode(version: int, ops: list[Op]) -> bytes:
    return (_JSON.encode({"v": version, "ops": ops}) + "\n").encode("utf-8")


def apply(rows: Rows, op: Op) -> None:
    kind, table, target, fields = op
    stored = rows.setdefault(table, {})
    looked_up = LOOKUPS.get(table, ())
    lookups = rows.lookups.setdefault(table, {}) if looked_up else {}
    if kind == "i":
        doc_id = int(target)
        if doc_id in stored:
            _unlook(lookups, looked_up, stored[doc_id], doc_id)
        stored[doc_id] = fields
        for field in looked_up:
            lookups.setdefault(field, {}).setdefault(fields.get(field), set()).add(doc_id)
        return
    changed = [field for field in looked_up if field in fields]
    for doc_id in map(int, target):
        row = stored[doc_id]
        _unlook(lookups, changed, row, doc_id)
        row.update(fields)
        for field in changed:
            lookups.setdefault(field, {}).setdefault(row.get(field), set()).add(doc_id)


def _unlook(
    lookups: dict[str, dict[Any, set[int]]],
    fields: tuple[str, ...] | list[str],
    row: dict[str, Any],
    doc_id: int,
) -> None:
    """Take a row out of the lookups of `fields`, as its values were."""
    for field in fields:
        by_value = lookups.get(field, {})
        holding = by_value.get(row.get(field))
        if holding is not None:
            holding.discard(doc_id)
            if not holding:
                del by_value[row.get(field)]


def replay(path: Path, version: int, start: int = 0, rows: Rows | None = None) -> tuple[Rows, int]:
    """The tables as the commits up to document `version` left them, and the length of the
    file's valid part (the lines after it are torn or ahead of the document). Given `rows`
    as the first `start` bytes left them, only the lines from there are read."""
    rows = Rows() if rows is None else rows
    try:
        with open(path, "rb") as handle:
            handle.seek(start)
            data = handle.read()
    except FileNotFoundError:
        return rows, 0
    valid = 0
    while valid < len(data):
        end = data.find(b"\n", valid)
        if end < 0:
            break  # torn: the append never finished
        try:
            record = json.loads(data[valid:end])
        except ValueError:
            break  # torn inside: a crash left garbage where the append was
        if record["v"] > version:
            break  # the document this commit belongs with was never written
        for op in record["ops"]:
            apply(rows, op)
        valid = end + 1
    return rows, start + valid


@dataclass(frozen=True)
class Replayed:
    """A journal's tables as its writer left them: `length` bytes of the file `identity`."""

    identity: tuple[int, int]  # device and inode
    length: int
    rows: Rows


def identity(path: Path) -> tuple[int, int, int] | None:
    """The file's device, inode and size, or None when there is none."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return None
    return status.st_dev, status.st_ino, status.st_size


class Appender:
    """A journal opened for appending once for a writer's life (the outbox commits one line
    per mail it sends). Each line is written whole and synced before the next is written:
    the caller waits for the last sync first (JournaledGame.settle). The file is opened in
    append mode, so a line goes to its end even after a torn tail was cut off."""

    def __init__(self, path: Path):
        self.path = path
        self._handle: BinaryIO | None = None

    def append(self, line: bytes, syncer: Executor | None = None) -> Future[None] | None:
        """Append one commit's line and sync it (and the folder, when the file is new).
        Given a `syncer`, the sync of an existing file runs there and the returned future
        says when the line is on disk; the caller waits for it before anything that counts
        on the line, and before the next `append`."""
        new = self._handle is None and not self.path.exists()
        if self._handle is None:
            self._handle = open_private(self.path, "ab")
        handle = self._handle
        try:
            handle.write(line)
            handle.flush()
            if syncer is not None and not new:
                return syncer.submit(os.fdatasync, handle.fileno())
            os.fdatasync(handle.fileno())  # the data and the new size; an append needs no more
        except BaseException:
            self.close()
            raise
        if new:
            fsync_folder(self.path.parent)
        return None

    def close(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            handle.close()


def store_texts(path: Path, ops: list[Op]) -> None:
    """Move the text fields of the rows `ops` insert into the texts file (fsynced), each
    row keeping where its text is."""
    texts: list[bytes] = []
    rows: list[dict[str, Any]] = []
    for kind, table, _target, row in ops:
        fields = TEXT_FIELDS.get(table, ())
        if kind == "i" and any(field in row for field in fields):
            texts.append(
                _JSON.encode({field: row.pop(field) for field in fields if field in row}).encode(
                    "utf-8"
                )
            )
            rows.append(row)
    if not texts:
        return
    new = not path.exists()
    with open_private(path, "ab") as handle:
        offset = handle.seek(0, os.SEEK_END)
        for text, row in zip(texts, rows):
            row[TEXT_AT] = [offset, len(text)]
            offset += len(text)
        handle.write(b"".join(texts))
        handle.flush()
        os.fdatasync(handle.fileno())
    if new:
        fsync_folder(path.parent)


def whole_row(texts: Callable[[], int], row: dict[str, Any]) -> dict[str, Any]:
    """The row with its text fields read back from the texts file, whose descriptor
    `texts()` gives (fields the row holds itself, set by a later update, win)."""
    at = row.get(TEXT_AT)
    if at is None:
        return row
    text = json.loads(os.pread(texts(), at[1], at[0]))
    whole = {**text, **row}
    del whole[TEXT_AT]
    return whole


def cut(path: Path, length: int) -> None:
    """Drop what follows the valid part (a commit a crash interrupted)."""
    if path.exists() and path.stat().st_size > length:
        with open(path, "r+b") as handle:
            handle.truncate(length)
            handle.flush()
            os.fsync(handle.fileno())
