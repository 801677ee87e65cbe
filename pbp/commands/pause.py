"""`pbp pause <game> [--reason TEXT]`: stop the game's clock (no resolution, no reminders);
players are told, and a short post for the thread is drafted."""
from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import NO_SEND_NOTICES, REASON_ARGUMENT, register_game_command, run_and_send
from pbp.game.deadlines import pause
from pbp.timezones import render_remaining
from pbp.commands.common import Subparsers


def register(subparsers: Subparsers) -> None:
    register_game_command(subparsers, "pause", run=run, no_send=NO_SEND_NOTICES,
                          help="stop a game's deadline until `pbp resume`", arguments=[REASON_ARGUMENT])


def run(args: Namespace) -> int:
    return run_and_send(args, lambda moderator: (
        f"Game {args.game} is paused with {render_remaining(pause(moderator, args.game, args.reason))} left; "
        "a post for the thread is drafted."))
