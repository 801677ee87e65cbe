"""`pbp start <game>`: deal the roles of a game open for sign-ups to those who signed up,
and mail every player their welcome (docs/design.md: Sign-ups and spectators)."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import register_game_command, run_and_send
from pbp.host.actions import start_open_game
from pbp.commands.common import Subparsers


def register(subparsers: Subparsers) -> None:
    register_game_command(
        subparsers,
        "start",
        run=run,
        help="start a game open for sign-ups with those who signed up",
        no_send="queue the welcome mails but do not send them now",
    )


def run(args: Namespace) -> int:
    return run_and_send(
        args, lambda moderator: start_open_game(moderator, args.game), sent="Welcome mails"
    )
