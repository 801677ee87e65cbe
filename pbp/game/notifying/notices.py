"""What every player is told when the host or the clock changes a game, the thread's
public event of a change to the clock, and the log of the host's actions (docs/design.md:
Command line)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from pbp.game.options import thread_language
from pbp.game.stored import StoredGame, load, record_of, save
from pbp.render import moments
from pbp.game.record_parts import HostAction
from pbp.moderator import Moderator
from pbp.render.verdicts import Note
from pbp.render.moments import render_moment
from pbp.timezones import to_text


def notify_players(
    moderator: Moderator,
    game: StoredGame,
    kind: str,
    notice: Note,
    *,
    public_events: list[dict[str, Any]] | None = None,
    only: set[str] | None = None,
) -> int:
    """Queue one notice per player (call inside the game's transaction): the `notice` is
    worded by the macros of its kind (templates/mail/_verdicts.j2, notices to the players),
    each reader's copy with a `deadline` fact, the open phase's deadline in that player's
    own time zone and in UTC. The host's own words (a modkill reason, a substitute's name)
    are facts, never template source, so they may hold any character.

    The form is made from the game as it stands now, inside the transaction (the caller's
    `game` may have been loaded before the change): a notice of a new deadline must not end
    in a form that still shows the old one."""
    game = load(moderator, game.id)
    record = game.record
    count = 0
    for player in record.roster:
        name = player.name
        if only is not None and name not in only:
            continue
        deadline = (
            render_moment(record.deadline, player.timezone, player.language)
            if record.deadline
            else ""
        )
        mail = moderator.renderer_for(player.language).render(
            "notice",
            record.ruleset,
            game=game.game_facts(),
            player=name,
            notice=Note(notice.kind, **{**notice.facts, "deadline": deadline}),
            public_events=public_events or [],
            form=game.form(name),
        )
        moderator.outbox.queue(
            game.file,
            phase=game.filed_phase,
            recipient=name,
            address=player.email,
            kind=kind,
            mail=mail,
        )
        count += 1
    return count


def log_host_action(game: StoredGame, action: HostAction, moderator: Moderator) -> None:
    """Append the host's action, stamped with the time, to the game's log (`pbp replay`
    re-runs the host kills from it). The log is read from the file as it stands (one
    command may log twice with the same `game`)."""
    current = record_of(game.file)
    stamped = replace(action, at=to_text(moderator.clock()))
    save(game, replace(current, host_actions=(*current.host_actions, stamped)), since=current)


def announce_clock_change(
    moderator: Moderator,
    before: StoredGame,
    action: str,
    reason: str,
    *,
    deadline: datetime | None = None,
    remaining: timedelta | None = None,
) -> None:
    """The clock change as a public event for the thread (a short host post, drafted by the
    listeners of host actions; templates/public/clock.j2). Call inside the transaction."""
    language = thread_language(before.record.moderator_options)
    event = {
        "kind": "clock",
        "data": {
            "action": action,
            "phase": before.open_phase.id,
            "reason": reason,
            "deadline": moments.render_moment(deadline, None, language) if deadline else "",
            "remaining": (
                moments.render_remaining(remaining, language) if remaining is not None else ""
            ),
        },
    }
    after = load(moderator, before.id)
    for listener in moderator.after_host_action:  # the forum drafts the public post
        listener(moderator, before, after, [event])
