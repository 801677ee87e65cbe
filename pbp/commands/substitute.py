"""`pbp substitute <game> <old> <new-name> <new-email>`: a newcomer takes over a character
(role, history, a new token; the old token stops working); everyone is told."""
from __future__ import annotations

from pbp.commands.common import add_settings_arguments, open_moderator
from pbp.host.operations import substitute
from pbp.host.sending import send_queued


def register(subparsers) -> None:
    parser = subparsers.add_parser("substitute", help="hand a player's character to a newcomer")
    parser.add_argument("game")
    parser.add_argument("old", help="the character (the old player's name)")
    parser.add_argument("new_name", metavar="new-name")
    parser.add_argument("new_email", metavar="new-email")
    parser.add_argument("--no-send", action="store_true", help="queue the mails but do not send them now")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    with open_moderator(args) as moderator:
        substitute(moderator, args.game, args.old, args.new_name, args.new_email)
        print(f"Game {args.game}: {args.new_name} now plays {args.old}; the old token no longer works.")
        print(send_queued(moderator, not args.no_send))
    return 0
