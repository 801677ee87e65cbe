"""`pbp pause <game> [--reason TEXT]`: stop the game's clock (no resolution, no reminders);
players are told, and a short post for the thread is drafted."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import (
    NO_SEND_NOTICES,
    REASON_ARGUMENT,
    register_game_command,
    run_and_send,
)
from pbp.host.actions import pause_game
from pbp.commands.common import Subparsers


def register(subparsers: Subparsers) -> None:
    register_game_command(
        subparsers,
        "pause",
        run=run,
        no_send=NO_SEND_NOTICES,
        help="stop a game's deadline until `pbp resume`",
        arguments=[REASON_ARGUMENT],
    )


def run(args: Namespace) -> int:
    return run_and_send(args, lambda moderator: pause_game(moderator, args.game, args.reason))
