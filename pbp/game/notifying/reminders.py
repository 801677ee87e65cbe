"""Reminders before deadlines (docs/design.md: Reliability rules, Deadlines).

At configurable times before each deadline (`24h,1h` by default), every player who must
act and has no accepted orders in gets one reminder with their form. This module only
decides *who is due a reminder now*; the caller queues each one in the outbox under the
key returned here, and the outbox's deterministic Message-ID makes a second queueing of
the same key a no-op, so a reminder is never sent twice, even across restarts.

Rules chosen where the design is silent:
- A reminder whose time fell before the phase opened is never sent (a 24h reminder in a
  12h phase would arrive together with the form itself).
- If several reminder times have passed at once (pbp was down), only the latest one is
  sent: one mail saying "1 hour left", not two.
- Nothing is due once the deadline has passed, while the game is paused, or when the game
  has reminders switched off (`--option reminders=off`, see `reminder_offsets`).
- Only actors with an order to give are reminded (`players_to_remind`), except in a phase
  whose actors are secret (a Werewolf night: every living player is an actor, most with
  an empty grammar). There a reminder would name a night role by being sent at all, so it
  goes to every living player or to none (docs/design.md: Hostile input): to all of them, with
  the same neutral subject, while anyone with an order to give has none in; else to none.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Collection, Iterable, Sequence

from engine.core import Phase
from pbp.game.clock import Running
from pbp.game.options import REMINDERS
from pbp.game.option_values import DEFAULT_REMINDERS, reminder_offsets
from pbp.storage.index_moments import reminder_due
from pbp.game.stored import StoredGame, load, save
from pbp.moderator import Moderator
from pbp.render.moments import render_remaining
from pbp.timezones import as_utc, render_duration_spec


@dataclass(frozen=True)
class DueReminder:
    """One reminder to queue: `key` is stable for (game, phase, player, offset)."""

    game: str
    phase: str
    player: str
    before_deadline: timedelta
    key: str


def reminder_key(game: str, phase: str, player: str, before_deadline: timedelta) -> str:
    """The outbox key of one reminder; the same inputs always give the same key."""
    return f"reminder/{game}/{phase}/{player}/{render_duration_spec(before_deadline)}"


def due_reminders(
    *,
    game: str,
    phase: str,
    opened_at: datetime,
    deadline: datetime,
    now: datetime,
    offsets: Iterable[timedelta],
    actors: Iterable[str],
    players_with_orders: Collection[str],
    paused: bool = False,
    already_sent: Collection[str] = (),
) -> list[DueReminder]:
    """The reminders due at `now`, one per player at most, never one already sent."""
    if paused or now >= deadline:
        return []
    passed = [offset for offset in offsets if opened_at < deadline - offset <= now]
    if not passed:
        return []
    latest = min(passed)  # the one closest to the deadline
    due = []
    for player in sorted(set(actors) - set(players_with_orders)):
        key = reminder_key(game, phase, player, latest)
        if key not in already_sent:
            due.append(DueReminder(game, phase, player, latest, key))
    return due


def reminder_times(
    *, opened_at: datetime, deadline: datetime, offsets: Iterable[timedelta]
) -> list[datetime]:
    """The moments, earliest first, at which this phase's reminders go out (none at or
    before the phase opened); the daemon's alarm wakes for the next one (pbp.storage.game_index)."""
    return sorted(deadline - offset for offset in offsets if opened_at < deadline - offset)


def players_to_remind(phase: Phase) -> list[str]:
    """The phase's actors who have an order to give (engine.core.Phase.awaited)."""
    return list(phase.awaited)


def queue_reminders(moderator: Moderator, settings_default: str = DEFAULT_REMINDERS) -> int:
    """Queue every reminder due now in every running game, each with the player's form;
    the keys of the queued ones are stored in the same durable write, so none goes twice.
    Called once per poll cycle (pbp.daemon.cycle). Returns how many were queued."""
    now = moderator.clock()
    queued = 0
    index = moderator.folder.index
    moment = now.timestamp()
    # the index knows the default reminder times only; with others every game is looked at
    game_ids = (
        index.games(
            moderator.folder.game_ids(), now=moment, due=lambda entry: reminder_due(entry, moment)
        )
        if settings_default == DEFAULT_REMINDERS
        else moderator.folder.game_ids()
    )
    for game_id in game_ids:
        game = load(moderator, game_id)
        due = _due_in(game, now, settings_default)
        clock = game.clock
        if not due or game.phase is None or not isinstance(clock, Running) or not clock.deadline:
            continue
        with game.file.transaction():
            _queue_due(moderator, game, game.phase, due, clock.deadline - now)
        queued += len(due)
    index.reminders_seen(moment)
    return queued


def _due_in(game: StoredGame, now: datetime, settings_default: str) -> list[DueReminder]:
    """The reminders due now in `game`, to players only (NPCs get no mail); none when the
    game is over, paused, or waiting for a public post: no deadline to remind of."""
    record = game.record
    clock = game.clock
    if game.phase is None or not isinstance(clock, Running) or clock.deadline is None:
        return []
    offsets = reminder_offsets(record.moderator_options.get(REMINDERS), settings_default)
    actors: Sequence[str] = players_to_remind(game.phase)
    with_orders: Collection[str] = game.latest_orders(game.phase.id)
    if game.phase.secret_actors:  # every living player or none: being reminded must not tell a role
        actors, with_orders = (game.phase.actors if set(actors) - set(with_orders) else ()), ()
    due = due_reminders(
        game=record.id,
        phase=game.phase.id,
        opened_at=as_utc(record.opened),
        deadline=clock.deadline,
        now=now,
        offsets=offsets,
        actors=actors,
        players_with_orders=with_orders,
        paused=bool(record.paused),
        already_sent=set(record.reminders_sent),
    )
    players = {player.name for player in record.roster}
    return [reminder for reminder in due if reminder.player in players]


def _queue_due(
    moderator: Moderator, game: StoredGame, phase: Phase, due: list[DueReminder], left: timedelta
) -> None:
    """Queue each reminder of `due` with the player's form, and store their keys in the same
    write (call inside the game's transaction), so that none goes twice."""
    record = game.record
    players = {player.name: player for player in record.roster}
    for reminder in due:
        player = players[reminder.player]
        mail = moderator.renderer_for(player.language).render(
            "reminder",
            record.ruleset,
            game=game.game_facts(),
            player=reminder.player,
            phase=phase.id,
            deadline=game.deadline_text(reminder.player),
            left=render_remaining(left, player.language),
            form=game.form(reminder.player),
            everyone=phase.secret_actors,
        )
        moderator.outbox.queue(
            game.file,
            phase=phase.id,
            recipient=reminder.player,
            address=player.email,
            kind="reminder",
            mail=mail,
        )
    sent = set(record.reminders_sent)
    save(game, replace(record, reminders_sent=tuple(sorted(sent | {r.key for r in due}))))
