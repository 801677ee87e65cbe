"""`pbp modkill <game> <player> <reason>`: the host removes a character at once; the kill
and its reason are announced to everyone."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import NO_SEND_NOTICES, register_game_command, run_and_send
from pbp.host.actions import modkill_character
from pbp.commands.common import Subparsers


def register(subparsers: Subparsers) -> None:
    register_game_command(
        subparsers,
        "modkill",
        run=run,
        no_send=NO_SEND_NOTICES,
        help="remove a character from a game at once, with a public reason",
        arguments=[
            ("player", {"help": "the player or NPC to remove"}),
            ("reason", {"nargs": "+", "help": "why, announced with the kill"}),
        ],
    )


def run(args: Namespace) -> int:
    return run_and_send(
        args,
        lambda moderator: modkill_character(
            moderator, args.game, args.player, " ".join(args.reason)
        ),
    )
