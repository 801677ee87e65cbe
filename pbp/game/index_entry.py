"""A game's entry in the index of deadlines and wake-ups (pbp.storage.game_index), computed from
its file: what a cycle needs to know to leave the game alone. Times are POSIX seconds,
so that the index's questions are comparisons of numbers."""

from __future__ import annotations

from datetime import datetime

from pbp.storage.datafolder import GameFile
from pbp.storage.drafts import DraftBook
from pbp.storage.index_moments import IndexEntry
from pbp.game.tally import next_time as next_tally_time
from pbp.game.clock import Over, Paused, Running, WaitingForPost, clock_of
from pbp.storage.outbox import outbox_briefs
from pbp.storage.outbox_queue import QUEUED
from pbp.game.final_read import final_read_retry
from pbp.game.options import PROD_BELOW, REMINDERS, tally_interval_of
from pbp.game.option_values import DEFAULT_REMINDERS, OptionValueError, prod_rule, reminder_offsets
from pbp.game.record import GameRecord
from pbp.game.notifying.reminders import reminder_times
from pbp.game.stored import record_of
from pbp.timezones import TimeInputError, as_utc

CLOCK_NAMES = {Running: "running", Paused: "paused", WaitingForPost: "waiting", Over: "over"}


def entry_of(game: GameFile) -> IndexEntry:
    record = record_of(game)
    clock = clock_of(record)
    deadline = clock.deadline if isinstance(clock, Running) else None
    queued = [row for row in outbox_briefs(game, lambda row: row["status"] == QUEUED)]
    # A resolution that waits for its thread to be read again is due at the next try.
    retry = final_read_retry(game, record.phase_id) if deadline else None
    return IndexEntry(
        phase=record.phase_id,
        clock=CLOCK_NAMES[type(clock)],
        deadline=max(deadline.timestamp(), retry or 0.0) if deadline else None,
        reminders=tuple(_reminder_times(record, deadline)),
        tallies=tuple(_tally_times(record, deadline)),
        prods=tuple(_prod_times(record, deadline)),
        unsent=bool(queued),
        retry_at=min(
            (as_utc(row.next_attempt).timestamp() for row in queued if row.next_attempt),
            default=None,
        ),
        approved=any(draft.approved for draft in DraftBook(game).unpublished()),
    )


def _reminder_times(record: GameRecord, deadline: datetime | None) -> list[float]:
    """The moments at which the phase's reminders go out (pbp.game.notifying.reminders)."""
    if deadline is None:
        return []
    try:
        offsets = reminder_offsets(record.moderator_options.get(REMINDERS), DEFAULT_REMINDERS)
    except TimeInputError:
        return []
    return [
        moment.timestamp()
        for moment in reminder_times(
            opened_at=as_utc(record.opened), deadline=deadline, offsets=offsets
        )
    ]


def _prod_times(record: GameRecord, deadline: datetime | None) -> list[float]:
    """The moment the phase's prods to post fall due (option prod_below, pbp.forum.thread.activity);
    the prodding itself decides whether the phase takes votes."""
    try:
        rule = prod_rule(record.moderator_options.get(PROD_BELOW))
    except OptionValueError:
        return []
    return [(deadline - rule[1]).timestamp()] if deadline is not None and rule else []


def _tally_times(record: GameRecord, deadline: datetime | None) -> list[float]:
    """The moments at which the phase's running vote counts fall due (option tally_every,
    pbp.game.tally); the drafting itself decides whether the phase has votes."""
    every = tally_interval_of(record.moderator_options)
    if deadline is None or every is None:
        return []
    opened, moments = as_utc(record.opened), []
    moment = next_tally_time(opened=opened, deadline=deadline, now=opened, every=every)
    while moment is not None:
        moments.append(moment.timestamp())
        moment = next_tally_time(opened=opened, deadline=deadline, now=moment, every=every)
    return moments
