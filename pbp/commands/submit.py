"""`pbp submit <game> <player> <file>`: the host enters orders for an NPC or a player
(order lines, or a whole BEGIN ORDERS block; `-` reads them from standard input)."""
from __future__ import annotations

import sys
from pathlib import Path

from pbp.commands.common import add_settings_arguments, open_moderator
from pbp.errors import UserError
from pbp.host.operations import submit
from pbp.host.sending import send_queued


def register(subparsers) -> None:
    parser = subparsers.add_parser("submit", help="enter orders for an NPC or a player, through the same parser")
    parser.add_argument("game")
    parser.add_argument("player")
    parser.add_argument("file", help="a file of order lines or a BEGIN ORDERS block; - for standard input")
    parser.add_argument("--no-send", action="store_true", help="queue the player's receipt but do not send it now")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    if args.file == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(args.file).read_text(encoding="utf-8-sig")
        except OSError:
            raise UserError(f"Cannot read the orders file {args.file}; check the path.") from None
    with open_moderator(args) as moderator:
        accepted = submit(moderator, args.game, args.player, text)
        print(f"Accepted for {args.player}:")
        for line in accepted or ["(no orders: the rules' default applies)"]:
            print(f"  {line}")
        print(send_queued(moderator, not args.no_send))
    return 0
