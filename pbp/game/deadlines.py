"""The host's changes to a phase's clock (extend, pause, resume) and the clock that waits
for a public post (docs/design.md: Deadlines).

The option `wait_for_publish` (docs/design.md, Public posts: "the schedule does not
wait for the host's approval unless the game sets `wait_for_publish`").

With it on, a resolution whose public post is drafted opens the next phase at once (its
form goes out with the reports and orders are taken) but leaves its deadline unset: the
phase's clock starts only when that post is published (`pbp publish`, or `pbp run`
publishing an approved draft). It then gets its full length from that moment, and every
player is told the deadline. Decisions the design leaves open, taken here:

- Only a resolution that has a public post waits: one with no public event has no draft
  (Werewolf `Nn` when `Nn-witch` follows), so there is nothing to wait for.
- The clock starts at the moment pbp finds the post published (right after publishing, in
  the same command or cycle); "opened" is set to that moment too, so reminders count from
  it like from any phase's start.
- A waiting phase is never resolved by a deadline nor early (`resolve_when_all_in`):
  players may still want to read the post. `pbp advance` still resolves it (the host's
  explicit choice).
- `pbp extend` while waiting sets the deadline (a duration counts from now) and ends the
  wait; `pbp pause` keeps the wait, and `pbp resume` goes back to waiting if the post is
  still unpublished; switching the option off (`pbp options <game> wait_for_publish=off`)
  starts a waiting clock at once. Switching it on applies from the next resolution.
- A post that cannot be published (a forum error) keeps the clock waiting; `pbp status`
  shows both the waiting phase and the failed post.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Mapping, Sequence

from engine.core import Phase
from pbp import schedule
from pbp.errors import UserError
from pbp.storage.drafts import PUBLISHED, DraftBook
from pbp.game.clock import UNSET_DEADLINE, awaited_post
from pbp.game.notifying.notices import announce_clock_change, log_host_action, notify_players
from pbp.game.options import WAIT_FOR_PUBLISH, is_on
from pbp.game.record import GameRecord
from pbp.game.record_parts import HostAction, PausedClock
from pbp.game.stored import StoredGame, load, record_of, running, save
from pbp.moderator import Moderator
from pbp.render.verdicts import Note
from pbp.storage.datafolder import GameFile
from pbp.timezones import TimeInputError, as_utc, parse_deadline_change, render_remaining, to_text


def clock_waits(
    moderator_options: Mapping[str, str],
    next_phase: Phase | None,
    public_events: Sequence[Mapping[str, Any]],
) -> bool:
    """Whether the phase opened by a resolution waits for that resolution's post."""
    return (
        next_phase is not None
        and bool(public_events)
        and is_on(moderator_options, WAIT_FOR_PUBLISH)
    )


def _post_state(game_file: GameFile, post: str) -> str | None:
    row = DraftBook(game_file).get(post)
    return str(row.status) if row else None


def may_start(record: GameRecord, game_file: GameFile) -> str:
    """Why the waiting clock may start now ("" when it may not): `published` (the post is
    out), `no_post` (there is no such draft any more) or `option_off` (the host switched
    the option off); the notice of the clock's start words it."""
    post = awaited_post(record)
    if post is None or record.paused:
        return ""
    if not is_on(record.moderator_options, WAIT_FOR_PUBLISH):
        return "option_off"
    state = _post_state(game_file, post)
    if state == PUBLISHED:
        return "published"
    if state is None:
        return "no_post"
    return ""


def start_clock(moderator: Moderator, game_id: str) -> datetime | None:
    """Start the open phase's clock if it waits and may start now (see `may_start`): its
    full length from now, every player told (call with the writer lock). Returns the
    deadline, or None when nothing started. Idempotent: a clock starts once."""
    game = load(moderator, game_id)
    why = may_start(game.record, game.file)
    post = awaited_post(game.record)
    if not why or post is None or game.phase is None:
        return None
    now = moderator.clock()
    deadline = schedule.deadline_after(now, game.record.schedule, game.open_phase.kind)
    with game.file.transaction():
        save(
            game,
            replace(
                game.record, deadline=to_text(deadline), opened=to_text(now), clock_waits_for=None
            ),
        )
        notify_players(
            moderator,
            game,
            "notice",
            Note(
                "clock_started",
                phase_words=_open_words(game),
                why=why,
                post_words=_words(game, post),
            ),
        )
    return deadline


def start_clocks(moderator: Moderator) -> list[str]:
    """Start every waiting clock that may start now (each cycle of `pbp run`, and `pbp
    publish`); one line per clock started, for the log."""
    started = []
    folder = moderator.folder
    # whether a waiting clock may start changes only with its game's file (a post published,
    # the option switched off): the index names the games changed since a cycle looked
    for game_id in folder.index.games(folder.game_ids()):
        record = record_of(moderator.folder.game(game_id))
        if awaited_post(record) is None:
            continue
        deadline = start_clock(moderator, game_id)
        if deadline is not None:
            started.append(
                f"{game_id} {record.phase_id}: clock started, deadline {to_text(deadline)}"
            )
    return started


def _words(game: StoredGame, phase_id: str) -> str:
    """A phase as players read it (`Day 1 — vote`): a notice never shows a phase id."""
    return game.rules.card.phase_words(phase_id)


def _open_words(game: StoredGame) -> str:
    return _words(game, game.open_phase.id)


def extend(moderator: Moderator, game_id: str, when: str, reason: str = "") -> datetime:
    """Move the open phase's deadline: `when` is a duration added to it (`2h`, `1d12h`) or
    an absolute time with a zone (`2030-12-01 18:00 Europe/Berlin`). Players are told, with
    the host's `reason` when given, and the thread gets a short host post."""
    reason = reason.strip()
    game = running(moderator, game_id)
    if game.record.paused:
        raise UserError.of(
            "Game %(game)s is paused; resume it first, then extend its deadline.", game=game_id
        )
    now = moderator.clock()
    # A clock that waits for a public post (wait_for_publish) has no deadline yet: a
    # duration counts from now, and the host's deadline ends the wait.
    current = as_utc(game.record.deadline) if game.record.deadline else now
    try:
        deadline = parse_deadline_change(when, current, now)
    except TimeInputError as error:
        raise UserError(error.wording) from None
    if deadline <= now:
        raise UserError.of(
            "%(when)s is in the past; give a later time or a duration.", when=repr(when)
        )
    with game.file.transaction():
        save(game, replace(game.record, deadline=to_text(deadline), clock_waits_for=None))
        log_host_action(
            game, HostAction("extend", game.open_phase.id, deadline=to_text(deadline)), moderator
        )
        notify_players(
            moderator,
            game,
            "notice",
            Note("deadline_moved", phase_words=_open_words(game), reason=reason),
        )
        announce_clock_change(moderator, game, "extend", reason, deadline=deadline)
    return deadline


def pause(moderator: Moderator, game_id: str, reason: str = "") -> timedelta:
    """Stop the clock: the open phase keeps its orders, its deadline is removed (so no
    resolution and no reminder happens) and the time left is kept for `resume`. Players
    are told, with the host's `reason` when given, and the thread gets a short host post."""
    reason = reason.strip()
    game = running(moderator, game_id)
    if game.record.paused:
        raise UserError.of(
            "Game %(game)s is already paused; `pbp resume %(game)s` restarts it.", game=game_id
        )
    now = moderator.clock()
    waits = awaited_post(game.record)
    if waits:  # the clock waits for a public post (wait_for_publish): the whole phase is left
        remaining = schedule.phase_duration(game.record.schedule, game.open_phase.kind)
    else:
        remaining = max(as_utc(game.record.deadline) - now, timedelta(0))
    with game.file.transaction():
        save(
            game,
            replace(
                game.record,
                deadline="",
                paused=PausedClock(
                    # kept to the microsecond: a whole-second count would lose the part of a second
                    # the pause fell in (docs/design.md: Deadlines, "the time left is kept exactly")
                    remaining / timedelta(microseconds=1) / 1e6,
                    since=to_text(now),
                ),
            ),
        )
        log_host_action(game, HostAction("pause", game.open_phase.id), moderator)
        notify_players(
            moderator,
            game,
            "notice",
            Note(
                "paused",
                game_id=game_id,
                phase_words=_open_words(game),
                reason=reason,
                waits_for_words=_words(game, waits) if waits else "",
                remaining=render_remaining(remaining),
            ),
        )
        announce_clock_change(moderator, game, "pause", reason, remaining=remaining)
    return remaining


def _whole_second_at_or_after(moment: datetime) -> datetime:
    """Deadlines are stored to the second (`pbp.timezones.to_text`); rounding up keeps every
    bit of the time left rather than cutting a fraction of a second off it."""
    whole = moment.replace(microsecond=0)
    return whole if whole == moment else whole + timedelta(seconds=1)


def resume(moderator: Moderator, game_id: str, reason: str = "") -> datetime | None:
    """Restart the clock with the time that was left when the game was paused.

    A clock that waited for a public post when the game was paused (wait_for_publish) waits
    again, or starts with the phase's full length if the post went out meanwhile
    (`start_clock`); None while it still waits. Players are told, with the host's `reason`
    when given, and the thread gets a short host post."""
    reason = reason.strip()
    game = running(moderator, game_id)
    paused = game.record.paused
    if not paused:
        raise UserError.of("Game %(game)s is not paused.", game=game_id)
    deadline = _whole_second_at_or_after(
        moderator.clock() + timedelta(seconds=paused.remaining_seconds)
    )
    waits = awaited_post(game.record)
    with game.file.transaction():
        save(game, replace(game.record, deadline="" if waits else to_text(deadline), paused=None))
        log_host_action(game, HostAction("resume", game.open_phase.id), moderator)
        if waits:
            started = start_clock(moderator, game_id)  # if the post went out meanwhile
            if started is None:
                notify_players(
                    moderator,
                    game,
                    "notice",
                    Note(
                        "resumed_waiting",
                        game_id=game_id,
                        phase_words=_open_words(game),
                        unset=UNSET_DEADLINE,
                        waits_for_words=_words(game, waits),
                        reason=reason,
                    ),
                )
            announce_clock_change(moderator, game, "resume", reason, deadline=started)
            return started
        notify_players(
            moderator,
            game,
            "notice",
            Note("resumed", game_id=game_id, phase_words=_open_words(game), reason=reason),
        )
        announce_clock_change(moderator, game, "resume", reason, deadline=deadline)
    return deadline
