"""Reading a poll's mail ahead of the judging, in a second process (docs/design.md:
Reliability rules — Ingest, "Reading ahead"; the `Reading` port: pbp.mail.ingest.reading).

A forked child process downloads the mail in parts, on the connection the poll was opened
with, and prepares each message while this process judges the part before. The moves are
made here, by one thread on a connection of this process's, so judging goes on while the
server moves; the moves asked for are gathered until they hold `MOVED_TOGETHER` messages
(or the poll's last part is handed over, or the caller waits for one), then made with one
command per outcome: each command costs the server a few milliseconds of work whatever
its size. The child writes nothing and moves nothing, so killing either process anywhere
leaves what a crash of one process would: mail committed but not yet moved is settled by
the next poll, mail not yet committed is read again. If the child stops, fails, or sends
nothing for `patience` seconds, the poll ends with the parts handed over and says why;
the rest of the inbox waits for the next poll.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import multiprocessing
import os
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any, Protocol

from pbp.crashpoints import crash_point
from pbp.errors import described
from pbp.mail.ingest.reading import Item, Part, Prepare, ReadingFailed, move_together
from pbp.ports import InboundMail, Mailbox, Outcome, OversizedMail

# The child sends small parts, the first smallest, so judging starts soon; the judging
# takes all that has come at once, up to JUDGED_TOGETHER messages in one commit (each
# commit is a durable write per game touched), but for the poll's last part, which is
# judged on its own: the move of all that came before then goes on while it is judged, and
# the poll waits at its end only for the last part's move, the smallest.
PART_SIZES = (20, 100)
JUDGED_TOGETHER = 1000
# Committed messages whose moves are gathered into one command per outcome (ReadAhead).
# A server's MOVE costs it a few milliseconds however many messages it moves (measured
# on Dovecot: 2,000 messages in 20 moves cost it about half again the work of one move).
MOVED_TOGETHER = 500
# What the pipe from the child holds (Linux's default most for a process without
# privileges): a part sent fits whole, so the child reads on instead of waiting for this
# process's listening thread, which waits its turn behind the judging to take it.
PIPE_BYTES = 1 << 20


class PartSource(Protocol):
    """What the child process of a `ReadAhead` reads with: a mailbox of its own (perhaps
    on a connection the parent opened and handed over)."""

    def download_parts(
        self, uidvalidity: int, uids: list[int], part_sizes: Iterable[int]
    ) -> Iterator[list[Item]]: ...

    def close(self) -> None:
        """When done with it: in the child, or in the parent if no child could take it."""

    def let_go(self) -> None:
        """In the parent, once the child has ended: drop the parent's hold on what the
        child read with, without using it."""


def can_read_ahead() -> bool:
    """A second process can be forked, and has a core of its own to run on."""
    return "fork" in multiprocessing.get_all_start_methods() and (os.cpu_count() or 1) > 1


class ReadAhead:
    """Mail read and prepared by a forked child process (the module docstring); `mover` is
    the mailbox this process moves mail with. A listening thread takes the child's parts
    as they come, so the child never waits for the judging; each part handed to the ingest
    is all that has come meanwhile (at most `JUDGED_TOGETHER` messages), so the judging
    never waits for a part it could already have."""

    def __init__(
        self,
        source: PartSource,
        uidvalidity: int,
        uids: list[int],
        prepare: Prepare,
        mover: Mailbox,
        patience: float = 600.0,
    ) -> None:
        self.patience = patience
        self.mover = mover
        self.failure: str | None = None
        self._expected = len(uids)  # messages the child is to hand over, oversized ones included
        context = multiprocessing.get_context("fork")
        # Objects older than the poll are left out of garbage collection until it ends: the
        # child's collector would otherwise write to every one of them, copying the
        # parent's memory page by page, and the parent's would walk them all mid-poll.
        # Nor does the collector run during the poll: judging makes next to no cyclic
        # garbage (a few hundred objects in 2,000 mails), while each collection walked
        # again every row the poll had added; what little there is goes at the next one.
        gc.freeze()
        self._collecting = gc.isenabled()
        gc.disable()
        self._channel, child_end = context.Pipe(duplex=False)
        with contextlib.suppress(
            AttributeError, OSError
        ):  # not Linux, or a lower limit: the default pipe
            fcntl.fcntl(child_end.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        self._child = context.Process(
            target=_child,
            args=(child_end, self._channel, source, uidvalidity, uids, prepare),
            name="pbp-read-ahead",
            daemon=True,
        )
        self._child.start()
        child_end.close()
        self._source = source
        self._arrived: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
        self._listener = threading.Thread(target=self._listen, name="pbp-read-ahead", daemon=True)
        self._listener.start()
        self._moves: ThreadPoolExecutor | None = None  # started at the first move
        self._unmoved: list[
            tuple[list[str], Outcome, Future[None]]
        ] = []  # moves asked for, not yet started
        self._moving_at_once = (
            False  # the poll's last part was handed over: every move starts when asked
        )

    def parts(self, meanwhile: Callable[[], None] | None = None) -> Iterator[Part]:
        if meanwhile is not None and self._arrived.empty():
            meanwhile()
        handed = False
        last: tuple[Any, ...] | None = None  # the child's end, or why it failed
        held: tuple[Any, ...] | None = None  # the poll's last part, kept to be judged alone
        received = 0
        while last is None:
            part: Part = []
            message, held = held or self._arrived.get(), None
            while True:
                if message[0] != "part":
                    last = message
                    break
                if part and received + len(message[1]) >= self._expected:
                    held = message
                    break
                part += message[1]
                received += len(message[1])
                if len(part) >= JUDGED_TOGETHER or self._arrived.empty():
                    break
                message = self._arrived.get()
            if part:
                handed = True
                if (
                    received >= self._expected
                ):  # the poll's last part: what came before moves while it is judged
                    self._moving_at_once = True
                    self._start_moves()
                yield part
        if last[0] == "end":
            if not handed:
                yield (
                    []
                )  # nothing to read (the inbox was recreated meanwhile): leftovers still count
            return
        self.failure = last[1]
        if not handed:
            raise ReadingFailed(last[1])

    def settle_many(self, keys: list[str], outcome: Outcome, at_once: bool = False) -> Future[None]:
        moved: Future[None] = Future()
        self._unmoved.append((keys, outcome, moved))
        if (
            at_once
            or self._moving_at_once
            or sum(len(keys) for keys, _o, _m in self._unmoved) >= MOVED_TOGETHER
        ):
            self._start_moves()
        return moved

    def _start_moves(self) -> None:
        """Hand the moves gathered so far to the moving thread, as one move per outcome."""
        asked, self._unmoved = self._unmoved, []
        if not asked:
            return
        if self._moves is None:
            self._moves = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pbp-mover")
        self._moves.submit(move_together, self.mover, asked)

    def close(self) -> None:
        """Stop a child still reading (what it holds is not durable), then wait for the
        moves asked for."""
        if self._listener.is_alive():
            self._child.kill()
        self._listener.join()
        self._child.join(self.patience)  # its last act, the logout
        if self._child.is_alive():
            self._child.kill()
            self._child.join()
        self._channel.close()
        self._source.let_go()
        self._start_moves()
        if self._moves is not None:
            self._moves.shutdown(wait=True)
        gc.unfreeze()
        if self._collecting:
            gc.enable()

    def _listen(self) -> None:
        while True:
            message = self._receive()
            self._arrived.put(message)
            if message[0] != "part":
                return

    def _receive(self) -> tuple[Any, ...]:
        """The child's next message: ("part", part), ("end",) or ("failed", why)."""
        try:
            if not self._channel.poll(self.patience):
                self._child.kill()
                return ("failed", f"the reading process sent nothing for {self.patience:g} seconds")
            message: tuple[Any, ...] = self._channel.recv()
        except (EOFError, OSError):
            return ("failed", "the reading process stopped")
        return message


def _child(
    channel: Connection,
    parents_end: Connection,
    source: PartSource,
    uidvalidity: int,
    uids: list[int],
    prepare: Prepare,
) -> None:
    """The child process: read and prepare every part and send it, then say how it ended.
    It never returns into the parent's code."""
    status = 1  # unless every message reached the parent
    try:
        parents_end.close()
        last: tuple[Any, ...] = ("end",)
        try:
            for part in source.download_parts(uidvalidity, uids, PART_SIZES):
                if not _handed(
                    channel, ("part", [(item, _prepared(item, prepare)) for item in part])
                ):
                    return
                crash_point("reader-after-part")
        except Exception as error:  # the reading failed: the parent reports it
            last = ("failed", described(error))
        if _handed(channel, last):
            status = 0
    finally:
        try:
            source.close()
        finally:
            os._exit(status)  # never run the parent's exit handlers or flush its buffers twice


def _handed(channel: Connection, message: tuple[Any, ...]) -> bool:
    try:
        channel.send(message)
    except OSError:  # the parent is gone, or stopped listening: nothing is owed to anyone
        return False
    return True


def _prepared(item: Item, prepare: Prepare) -> InboundMail | None:
    if isinstance(item, OversizedMail):
        return None
    try:
        return prepare(item)
    except Exception:  # the parent prepares it again itself, where the failure is handled
        return None
