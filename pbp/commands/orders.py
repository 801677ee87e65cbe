"""`pbp orders <game>`: who has sent what in the open phase, and who has not."""
from __future__ import annotations

from pbp.commands.common import add_settings_arguments, open_moderator
from pbp.host.operations import orders_overview


def register(subparsers) -> None:
    parser = subparsers.add_parser("orders", help="show who has sent orders for the current phase, and who has not")
    parser.add_argument("game")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    with open_moderator(args) as moderator:
        print(orders_overview(moderator, args.game))
    return 0
