"""`pbp modkill <game> <player> <reason>`: the host removes a character at once; the kill
and its reason are announced to everyone."""
from __future__ import annotations

from pbp.commands.common import add_settings_arguments, open_moderator
from pbp.errors import UserError
from pbp.host.operations import modkill
from pbp.host.sending import send_queued


def register(subparsers) -> None:
    parser = subparsers.add_parser("modkill", help="remove a character from a game at once, with a public reason")
    parser.add_argument("game")
    parser.add_argument("player")
    parser.add_argument("reason", nargs="+")
    parser.add_argument("--no-send", action="store_true", help="queue the notices but do not send them now")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    with open_moderator(args) as moderator:
        try:
            public = modkill(moderator, args.game, args.player, " ".join(args.reason))
        except ValueError as error:  # the engine refuses (e.g. an already dead character)
            raise UserError(str(error)) from None
        print(f"{args.player} is removed from game {args.game}.")
        for line in public:
            print(f"  {line}")
        print(send_queued(moderator, not args.no_send))
    return 0
