"""`pbp orders <game>`: who has sent what in the open phase, and who has not."""
from __future__ import annotations

from pbp.commands._game_command import register_game_command
from pbp.commands.common import open_reader
from pbp.host.orders import orders_overview


def register(subparsers) -> None:
    register_game_command(subparsers, "orders", run=run,
                          help="show who has sent orders for the current phase, and who has not")


def run(args) -> int:
    with open_reader(args) as moderator:  # only reads: no lock, never waits
        print(orders_overview(moderator, args.game))
    return 0
