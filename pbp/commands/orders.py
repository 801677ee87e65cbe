"""`pbp orders <game>`: who has sent what in the open phase, and who has not."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import register_game_command
from pbp.commands.common import open_reader, Subparsers
from pbp.host.orders import orders_overview


def register(subparsers: Subparsers) -> None:
    register_game_command(
        subparsers,
        "orders",
        run=run,
        help="show who has sent orders for the current phase, and who has not",
    )


def run(args: Namespace) -> int:
    with open_reader(args) as moderator:  # only reads: no lock, never waits
        print(orders_overview(moderator, args.game))
    return 0
