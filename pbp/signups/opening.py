"""Opening a game for sign-ups (docs/design.md: Sign-ups and spectators): `pbp open-game` checks
everything the game will need (ruleset, player range, options, schedule, closing time)
before anyone signs up, so that a game that fills up can start without the host."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from typing import Sequence

from engine.core import GameSetupError, Ruleset
from engine.names import look_alike
from engine.seat_names import player_names
from pbp import schedule
from pbp.errors import UserError
from pbp.game.options import split_options
from pbp.game.option_values import OptionValueError
from pbp.game.record_parts import Npc, RosterPlayer, player_specs
from pbp.game.roster_file import check_unique
from pbp.moderator import Moderator
from pbp.storage.open_games import OPEN, OpenGame, add_open_game
from pbp.storage.signup_record import SignupRecord
from pbp.timezones import parse_deadline_change, to_text

GAME_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,19}")


def parse_player_range(text: str) -> tuple[int, int]:
    """`8..12` (or one number, `8`) as (min, max)."""
    match = re.fullmatch(r"\s*(\d{1,3})\s*(?:(?:\.\.|-)\s*(\d{1,3})\s*)?", text or "")
    if not match:
        raise UserError(
            f"--players {text!r} is not a range; write MIN..MAX, for example --players 8..12."
        )
    low, high = int(match.group(1)), int(match.group(2) or match.group(1))
    if not 1 <= low <= high:
        raise UserError(
            f"--players {text!r}: MIN must be at least 1 and at most MAX, for example --players"
            " 8..12."
        )
    return low, high


def open_for_signups(
    moderator: Moderator,
    game_id: str,
    ruleset: str,
    players: str,
    closes: str,
    options: dict[str, str] | None = None,
    schedule_text: str | None = None,
    seed: str | None = None,
    npcs: Sequence[Npc] = (),
    dialect: str = "",
) -> OpenGame:
    """Check the game's settings and open it for sign-ups until `closes` (a duration from
    now, e.g. `3d`, or a time with its zone). `npcs` are the host's characters (as
    `new-game --npc`); `dialect` is the markup of the game's posts (default: the settings
    file's)."""
    if not GAME_ID.fullmatch(game_id or ""):
        raise UserError(
            f"Game id {game_id!r}: use 1-20 letters, digits, '_' or '-', starting with a letter."
        )
    rules = moderator.rules(ruleset)
    low, high = parse_player_range(players)
    now = moderator.clock()
    closing: datetime = parse_deadline_change(closes, now, now)
    if closing <= now:
        raise UserError(
            f"--closes {closes!r} is in the past; give a later time or a duration such as 3d."
        )
    plan = schedule.parse_schedule(schedule_text, rules.card.phase_kinds)
    given = dict(options or {})
    _check_playable(game_id, ruleset, rules, (low, high), given, npcs)
    record = SignupRecord(
        game_id,
        ruleset,
        low,
        high,
        to_text(closing),
        OPEN,
        seed=seed or "",
        options=given,
        schedule_text=schedule_text or "",
        schedule=plan,
        created=to_text(now),
        npcs=tuple(npc.to_json() for npc in npcs),
        dialect=dialect or "",
    )
    return add_open_game(moderator.folder, record)


def _check_playable(
    game_id: str,
    ruleset: str,
    rules: Ruleset,
    players: tuple[int, int],
    given: dict[str, str],
    npcs: Sequence[Npc],
) -> None:
    """Refuse a game the engine cannot set up with the fewest or the most players, these
    options and these NPCs."""
    if npcs and not rules.card.npcs_allowed:
        raise UserError(f"{ruleset.title()} has no NPCs; leave out --npc.")
    check_unique([npc.name for npc in npcs], "--npc")
    try:
        _, engine_options = split_options(given, rules.card)
        for count in sorted(set(players)):  # the engine checks player counts and options at setup
            trial = [
                RosterPlayer(name, "")
                for name in player_names(count + len(npcs))
                if not any(look_alike(name, npc.name) for npc in npcs)
            ][:count]
            rules.new_game(player_specs(trial, npcs), "check", engine_options)
    except (GameSetupError, OptionValueError) as error:
        raise UserError(f"Game {game_id} cannot be played as given: {error}") from None


def set_dialect(signups: OpenGame, dialect: str | None) -> str:
    """Set the markup of an open game's posts (`pbp draft settings <game> --dialect` before
    the start; None changes nothing); returns the dialect now set ("" for the settings
    file's). It reaches the game's forum settings when the game starts."""
    if dialect:
        signups.save(replace(signups.record, dialect=dialect))
    return signups.record.dialect
