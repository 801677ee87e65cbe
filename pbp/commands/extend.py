"""`pbp extend <game> <when>`: move the current deadline by a duration (`2h`, `1d12h`) or to
an absolute time with a zone (`"2026-12-01 18:00 Europe/Berlin"`); players are told."""
from __future__ import annotations

from pbp.commands._game_command import NO_SEND_NOTICES, register_game_command, run_and_send
from pbp.game.deadlines import extend
from pbp.timezones import render_moment


def register(subparsers) -> None:
    register_game_command(
        subparsers, "extend", run=run, no_send=NO_SEND_NOTICES,
        help="move a game's current deadline (by a duration or to a time)",
        arguments=[("when", {"nargs": "+",
                             "help": "2h, 1d12h, or a time with a zone: 2026-12-01 18:00 Europe/Berlin"})])


def run(args) -> int:
    return run_and_send(args, lambda moderator: (
        f"Game {args.game}: the deadline is now {render_moment(extend(moderator, args.game, ' '.join(args.when)))}."))
