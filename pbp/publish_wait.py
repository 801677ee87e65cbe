"""The per-game option `wait_for_publish` (docs/design.md, Public posts: "the schedule does not
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

from datetime import datetime
from typing import Any, Mapping, Sequence

from engine.core import Phase
from pbp import schedule
from pbp.host.options import WAIT_FOR_PUBLISH, is_on

# What a player's form, receipt or STATUS reply says while the clock waits.
UNSET_DEADLINE = "set when the host publishes the thread post"
RECORD_KEY = "clock_waits_for"  # {"phase": the waiting phase, "post": the phase whose post it waits for}


def clock_waits(moderator_options: Mapping[str, str], next_phase: Phase | None,
                public_events: Sequence[Mapping]) -> bool:
    """Whether the phase opened by a resolution waits for that resolution's post."""
    return next_phase is not None and bool(public_events) and is_on(moderator_options, WAIT_FOR_PUBLISH)


def waiting_marker(resolved_phase: str, next_phase: Phase) -> dict:
    return {"phase": next_phase.id, "post": resolved_phase}


def awaited_post(record: Mapping[str, Any]) -> str | None:
    """The phase whose post the open phase's clock waits for, or None. A marker left from
    an earlier phase (the host advanced past it) no longer counts."""
    marker = record.get(RECORD_KEY)
    if not marker or not record.get("phase_id") or marker.get("phase") != record["phase_id"]:
        return None
    return marker["post"]


def _post_state(game_file: Any, post: str) -> str | None:
    from pbp.forum.book import DraftBook  # pbp.forum imports pbp.games, which imports this module
    row = DraftBook(game_file).get(post)
    return row["status"] if row else None


def may_start(record: Mapping[str, Any], game_file: Any) -> str:
    """Why the waiting clock may start now ("" when it may not): the post is published,
    there is no such draft any more, or the option was switched off."""
    from pbp.forum.book import PUBLISHED
    post = awaited_post(record)
    if post is None or record.get("paused"):
        return ""
    if not is_on(record.get("moderator_options", {}), WAIT_FOR_PUBLISH):
        return f"The host no longer waits for the public post of {post} before starting the clock."
    state = _post_state(game_file, post)
    if state == PUBLISHED:
        return f"The public post of {post} is published; the deadline runs from now."
    if state is None:
        return f"There is no public post of {post} to wait for; the deadline runs from now."
    return ""


def start_clock(moderator: Any, game_id: str) -> datetime | None:
    """Start the open phase's clock if it waits and may start now (see `may_start`): its
    full length from now, every player told (call with the writer lock). Returns the
    deadline, or None when nothing started. Idempotent: a clock starts once."""
    from pbp.games import load
    from pbp.host.operations import notify_players  # pbp.host.operations imports pbp.games

    game = load(moderator, game_id)
    reason = may_start(game.record, game.file)
    if not reason or game.phase is None:
        return None
    now = moderator.clock()
    deadline = schedule.deadline_after(now, game.record["schedule"], game.phase.kind)
    with game.file.transaction():
        game.file.update_record({"deadline": schedule.to_text(deadline), "opened": schedule.to_text(now),
                                 RECORD_KEY: None})
        notify_players(moderator, game, "notice", headline=f"The deadline of {game.phase.id} is set.",
                       lines=[reason], deadline_is="The deadline is")
    return deadline


def start_clocks(moderator: Any) -> list[str]:
    """Start every waiting clock that may start now (each cycle of `pbp run`, and `pbp
    publish`); one line per clock started, for the log."""
    started = []
    for game_id in moderator.folder.game_ids():
        record = moderator.folder.game(game_id).record()
        if awaited_post(record) is None:
            continue
        deadline = start_clock(moderator, game_id)
        if deadline is not None:
            started.append(f"{game_id} {record['phase_id']}: clock started, deadline {schedule.to_text(deadline)}")
    return started
