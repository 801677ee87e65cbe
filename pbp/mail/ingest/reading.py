"""A poll's reading (docs/design.md: Reliability rules — Ingest, "Reading ahead").

A `Reading` hands the ingest its mail in parts, each message with what `prepare` (the
parse) made of it, and moves committed mail out of the inbox when asked. The ingest
judges and commits each part as one batch, as it would a poll of its own.

- `Fetched`: the whole poll downloaded here, in one part, nothing prepared ahead; each
  move is made at once. Every mailbox can be read so.
- `ReadAhead` (pbp.mail.ingest.read_ahead): a child process reads and prepares the mail while
  this one judges; a mailbox that can (`ReadableMailbox`) chooses it for a large poll.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Protocol, runtime_checkable

from pbp.ports import InboundMail, Mailbox, Outcome, OversizedMail, RawMail

Prepare = Callable[[RawMail], InboundMail]
Item = RawMail | OversizedMail
Part = list[tuple[Item, InboundMail | None]]


class ReadingFailed(Exception):
    """The reading process could not hand over the mail (the poll's fetch failed)."""


class Reading(Protocol):
    # Why the parts ended before the poll's last mail (the rest stays in the inbox), or None.
    failure: str | None

    def parts(self, meanwhile: Callable[[], None] | None = None) -> Iterator[Part]:
        """The poll's mail, part by part; at least one part, perhaps empty. Raises when not
        even the first part could be read. `meanwhile` is run if the first part is still
        being read in another process when it is asked for."""

    def settle_many(self, keys: list[str], outcome: Outcome, at_once: bool = False) -> Future[None]:
        """Move committed mail out of the inbox, perhaps together with mail whose move is
        asked for later; `at_once` when the caller waits for the move. The future holds
        what went wrong."""

    def close(self) -> None:
        """Wait for every move asked for, then let go of what the reading holds."""


@runtime_checkable
class ReadableMailbox(Protocol):
    """A mailbox that chooses how its poll is read (pbp.mail.imap.mailbox reads a large one
    ahead)."""

    def read(self, limit: int, prepare: Prepare) -> Reading: ...


def open_reading(mailbox: Mailbox, limit: int, prepare: Prepare) -> Reading:
    """How one poll of `mailbox` reads at most `limit` messages."""
    if isinstance(mailbox, ReadableMailbox):
        return mailbox.read(limit, prepare)
    return Fetched(mailbox, lambda: mailbox.fetch_new(limit))


class Fetched:
    """A poll read in this process: `download` runs when the first part is asked for."""

    failure: str | None = None

    def __init__(self, mailbox: Mailbox, download: Callable[[], list[Item]]) -> None:
        self.mailbox = mailbox
        self.download = download

    def parts(self, meanwhile: Callable[[], None] | None = None) -> Iterator[Part]:
        yield [(item, None) for item in self.download()]  # read here: nothing to do meanwhile

    def settle_many(self, keys: list[str], outcome: Outcome, at_once: bool = False) -> Future[None]:
        moved: Future[None] = Future()
        move_together(self.mailbox, [(keys, outcome, moved)])  # here and now
        return moved

    def close(self) -> None:
        return None


def move_together(mailbox: Mailbox, asked: list[tuple[list[str], Outcome, Future[None]]]) -> None:
    """One move per outcome for all the mail `asked`, each asker told how its move went
    (a failure is reported by the ingest; the next poll settles the mail again)."""
    by_outcome: dict[Outcome, list[tuple[list[str], Future[None]]]] = {}
    for keys, outcome, moved in asked:
        by_outcome.setdefault(outcome, []).append((keys, moved))
    for outcome, group in by_outcome.items():
        try:
            mailbox.settle_many([key for keys, _moved in group for key in keys], outcome)
        except (
            Exception
        ) as error:  # told to each asker, never raised here: one failed move stops no other
            for _keys, moved in group:
                moved.set_exception(error)
        else:
            for _keys, moved in group:
                moved.set_result(None)
