"""`pbp resume <game> [--reason TEXT]`: restart a paused game's clock with the time it had
left; players are told, and a short post for the thread is drafted."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import (
    NO_SEND_NOTICES,
    REASON_ARGUMENT,
    register_game_command,
    run_and_send,
)
from pbp.host.actions import resume_game
from pbp.commands.common import Subparsers


def register(subparsers: Subparsers) -> None:
    register_game_command(
        subparsers,
        "resume",
        run=run,
        no_send=NO_SEND_NOTICES,
        help="restart a paused game with the time it had left",
        arguments=[REASON_ARGUMENT],
    )


def run(args: Namespace) -> int:
    return run_and_send(args, lambda moderator: resume_game(moderator, args.game, args.reason))
