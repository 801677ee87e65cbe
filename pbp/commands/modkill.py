"""`pbp modkill <game> <player> <reason>`: the host removes a character at once; the kill
and its reason are announced to everyone."""
from __future__ import annotations

from argparse import Namespace

from engine.core import HostActionError
from pbp.commands._game_command import NO_SEND_NOTICES, register_game_command, run_and_send
from pbp.errors import UserError
from pbp.game.stored import load
from pbp.host.removal import modkill
from pbp.commands.common import Subparsers
from pbp.moderator import Moderator


def register(subparsers: Subparsers) -> None:
    register_game_command(subparsers, "modkill", run=run, no_send=NO_SEND_NOTICES,
                          help="remove a character from a game at once, with a public reason",
                          arguments=[("player", {"help": "the player or NPC to remove"}),
                                     ("reason", {"nargs": "+", "help": "why, announced with the kill"})])


def run(args: Namespace) -> int:
    def act(moderator: Moderator) -> list[str]:
        name = load(moderator, args.game).character(args.player)  # `jose` is José
        try:
            public = modkill(moderator, args.game, name, " ".join(args.reason))
        except HostActionError as error:  # the engine refuses (e.g. an already dead character)
            raise UserError(str(error)) from None
        return [f"{name} is removed from game {args.game}.", *(f"  {line}" for line in public)]

    return run_and_send(args, act)
