"""The data folder: one game document and one journal per game, plus a small registry
(docs/design.md: Storage).

Layout under the data folder:
    pbp.lock              the writer lock (pbp.durable.WriterLock)
    registry.json         games (id, ruleset) and mail that belongs to no game
    games/<id>.json       one game's document (a TinyDB file, rewritten whole by each commit)
    games/<id>.journal    what only grows: its outbox, order log and handled mail
                          (pbp.storage.journal)
    games/<id>.texts      the texts of its outbox's mails, which the journal's rows point to
    mail/                 the embedded Maildir transport (settings.transport = maildir)

A game's tables, in its document:
    game     one document: roster, tokens, schedule, state JSON, open phase and deadline,
             resolved phase ids, checkpoints, result, the host's log
    drafts, forum  the public posts' drafts and the game's forum settings (pbp.storage.drafts)
and in its journal (so that an ordinary mail's commit only appends):
    orders   the order log: phase, player, canonical text, received, message id, mail key
    outbox   the outbox ledger (pbp.storage.outbox)
    mails    the handled-mail ledger: key, sha256, message id, outcome
    replies  replies per sender per day (the loop and flood cap)
    wrong_tokens  wrong tokens per sender per day (pbp.game.judging.token_guard)
    thread_posts  the public thread's posts as read: revision, order lines, author's
             player, words (pbp.forum.thread.thread_votes, pbp.forum.thread.activity)
    messages the channels' messages, the host's included (pbp.conversations.channels)

How each file is kept: pbp.storage.document_storage (the registry, the games' documents),
pbp.storage.game_storage (a game's document with its journal).
"""

from __future__ import annotations

import contextlib
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, Callable, cast, Iterable, Iterator, Mapping

from tinydb import Query, TinyDB

from pbp.errors import UserError
from pbp.durable import PRIVATE_FOLDER, WriterLock, private_folder, write_atomically
from pbp.storage.upgrading import upgrades
from pbp.storage.document_storage import HandedOverStorage, SnapshotStorage
from pbp.storage.game_index import EntryOf, GameIndex
from pbp.storage.game_storage import (
    GameDatabase,
    GameReaderStorage,
    GameWriterStorage,
    JournaledGame,
    forget_handed_over,
)
from pbp.storage.journal_table import GameTable, JournalTable


class GameFile:
    """One game's TinyDB file."""

    def __init__(self, path: Path, writer: bool):
        self.id = path.stem
        self.path = path
        self.db = GameDatabase(path, storage=GameWriterStorage if writer else GameReaderStorage)
        storage = self.journaled()
        self.game: GameTable = self.db.table(
            "game", cache_size=0
        )  # the document's one row, the record
        self.orders = JournalTable("orders", storage.rows, storage.change, storage.whole)
        self.outbox = JournalTable("outbox", storage.rows, storage.change, storage.whole)
        self.mails = JournalTable("mails", storage.rows, storage.change, storage.whole)
        self.replies = JournalTable("replies", storage.rows, storage.change, storage.whole)
        self.wrong_tokens = JournalTable(
            "wrong_tokens", storage.rows, storage.change, storage.whole
        )
        # the posts of the game's thread as pbp read them (pbp.forum.thread.thread_votes)
        self.thread_posts = JournalTable(
            "thread_posts", storage.rows, storage.change, storage.whole
        )
        # the channels' relayed messages (pbp.conversations.channels), each one appended line
        self.messages = JournalTable("messages", storage.rows, storage.change, storage.whole)

    def record(self) -> dict[str, Any]:
        docs = self.game.all()
        if not docs:
            raise UserError(
                f"The game file {self.path} is empty; restore it from a backup or remove it."
            )
        return docs[0]

    def update_record(self, fields: dict[str, Any], removed: Iterable[str] = ()) -> None:
        """Write `fields` into the game's record and drop the keys `removed` (a value the
        record no longer holds is gone from the file, not kept as null)."""
        dropped = tuple(removed)

        def change(document: dict[str, Any]) -> None:
            document.update(fields)
            for key in dropped:
                document.pop(key, None)

        # TinyDB's update also takes a function of the document (its `GameTable` protocol
        # names only the mapping form).
        self.game.update(cast(Mapping[str, Any], change), doc_ids=[self.game.all()[0].doc_id])

    def journaled(self) -> JournaledGame:
        """The game's storage: its document and its journal."""
        storage = self.db.storage
        assert isinstance(storage, JournaledGame)  # __init__ opens the database on one
        return storage

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        return self.journaled().transaction()

    @contextlib.contextmanager
    def syncing_in(self, syncer: Executor) -> Iterator[Callable[[], None]]:
        """Within it, a commit that only appends to the journal returns once its line is
        written, its sync running on `syncer`; the function it gives waits until that line
        is on disk (and every commit waits for the one before it). Whoever acts on such a
        commit outside the file (the outbox, before it sends the next mail) waits first.
        At the end, the last line is waited for."""
        storage = self.journaled()
        storage.syncer = syncer
        try:
            yield storage.settle
        finally:
            storage.syncer = None
            storage.settle()


class DataFolder:
    """The data folder, opened either as the one writer (lock held) or read-only.

    A writer waits up to `wait` seconds for the lock (`on_wait` is called once if it has
    to wait): `pbp run` takes the lock for each cycle and releases it between cycles. The
    in-memory copies a writer keeps (pbp.storage.document_storage) live only as long as
    this object, i.e. only while the lock is held; close it to release the lock.
    `entry_of` computes a game's entry in the index of deadlines (pbp.storage.game_index):
    the composition root hands it in; without it the index never vouches for a game."""

    def __init__(
        self,
        path: Path,
        writer: bool = True,
        wait: float = 0.0,
        on_wait: Callable[[], None] | None = None,
        entry_of: EntryOf | None = None,
    ):
        self.path = Path(path)
        self.writer = writer
        self.lock = WriterLock(self.path) if writer else None
        upgrades.refuse_newer(
            self.path
        )  # before anything is written (docs/design.md: Releases and upgrades)
        if self.lock is not None:  # the writer
            private_folder(self.path / "games")
            self.path.chmod(PRIVATE_FOLDER)  # a folder made by an older version, or by hand
            self.lock.acquire(wait, on_wait)
            try:
                upgrades.open_for_writing(self.path)
            except BaseException:
                self.lock.release()
                raise
            if not (self.path / "registry.json").exists():
                write_atomically(self.path / "registry.json", b"{}")
        elif not (self.path / "registry.json").exists() and not (self.path / "games").exists():
            raise UserError(
                f"{self.path} is not a pbp data folder; run `pbp init` or check the settings' data"
                " folder."
            )
        else:
            upgrades.refuse_interrupted(self.path)
        storage = HandedOverStorage if writer else SnapshotStorage
        self.registry = TinyDB(self.path / "registry.json", storage=storage)
        self.games_table = self.registry.table("games", cache_size=0)
        self.mails = self.registry.table("mails", cache_size=0)
        self._games: dict[str, GameFile] = {}
        self._game_ids: list[str] | None = None
        self.index = GameIndex(
            self.path, writer, entry_of
        )  # deadlines and wake-ups (pbp.storage.game_index)

    def close(self) -> None:
        try:
            if self.writer:
                self.index.save(self)
        finally:
            for game in self._games.values():
                game.db.close()
            self.registry.close()
            if self.lock:
                self.lock.release()

    def __enter__(self) -> "DataFolder":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ games
    def game_ids(self) -> list[str]:
        # Asked several times per cycle; only `add_game` changes the list while the folder is open.
        if self._game_ids is None:
            self._game_ids = [
                row["id"] for row in (self.registry.storage.read() or {}).get("games", {}).values()
            ]
        return list(self._game_ids)

    def game(self, game_id: str) -> GameFile:
        if game_id not in self._games:
            path = self.path / "games" / f"{game_id}.json"
            if not path.exists() or not self.games_table.contains(Query().id == game_id):
                known = ", ".join(self.game_ids()) or "none yet"
                raise UserError(f"There is no game {game_id!r}; the games are: {known}.")
            if self.writer:
                self.index.opening(game_id)
            self._games[game_id] = GameFile(path, self.writer)
        return self._games[game_id]

    def games(self) -> Iterator[GameFile]:
        for game_id in self.game_ids():
            yield self.game(game_id)

    def add_game(
        self,
        game_id: str,
        ruleset: str,
        created: str,
        record: dict[str, Any],
        fill: Callable[[GameFile], None] = lambda game: None,
    ) -> GameFile:
        """Write the game's file first (its record and whatever `fill` queues in it, such as
        the welcome mails, in one durable write), then register it: a crash in between
        leaves an unregistered file that the next `new-game` with that id overwrites."""
        if self.games_table.contains(Query().id == game_id):
            raise UserError(f"A game called {game_id!r} exists already; choose another --id.")
        path = self.path / "games" / f"{game_id}.json"
        self.index.opening(game_id)
        path.unlink(missing_ok=True)
        for leftover in (".journal", ".texts"):  # of an unregistered game a crash left behind
            path.with_suffix(leftover).unlink(missing_ok=True)
        forget_handed_over(path)
        game = GameFile(path, self.writer)
        with game.transaction():
            game.game.insert(record)
            fill(game)
        self.games_table.insert({"id": game_id, "ruleset": ruleset, "created": created})
        self._game_ids = None
        self._games[game_id] = game
        return game

    def next_game_id(self, prefix: str) -> str:
        taken = set(self.game_ids()) | {
            doc["id"] for doc in self.registry.table("signups", cache_size=0).all()
        }
        number = 1
        while f"{prefix}{number}" in taken:
            number += 1
        return f"{prefix}{number}"
