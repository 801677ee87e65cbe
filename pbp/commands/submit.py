"""`pbp submit <game> <character> <orders…>`: the host enters orders for an NPC or a player
(a file of order lines or a whole BEGIN ORDERS block, `-` for standard input, or the order
lines themselves: `pbp submit inf1 Raiden "MOVE D-4"`), or asks `STATUS`: where the
character stands and its accepted orders, as a player's STATUS mail says. In a game with
the option `resolve_when_all_in`, the order that completes the phase resolves it."""

from __future__ import annotations

from argparse import Namespace
import sys
from pathlib import Path

from pbp.commands._game_command import register_game_command, run_and_send
from pbp.commands.common import open_reader, Subparsers
from pbp.errors import UserError
from pbp.host.actions import submit_orders
from pbp.host.orders import character_status


def register(subparsers: Subparsers) -> None:
    register_game_command(
        subparsers,
        "submit",
        run=run,
        no_send="queue the player's receipt but do not send it now",
        help=(
            "enter orders for an NPC or a player, through the same parser (or STATUS: where it"
            " stands)"
        ),
        arguments=[
            ("player", {"help": "the NPC or player whose orders these are"}),
            (
                "orders",
                {
                    "nargs": "+",
                    "metavar": "orders",
                    "help": (
                        "a file of order lines or a BEGIN ORDERS block; - for standard input; "
                        "or the order lines themselves, one per argument; or STATUS"
                    ),
                },
            ),
        ],
    )


def _order_text(parts: list[str]) -> str:
    """The orders as the host gave them: standard input, a file, or the lines themselves."""
    if parts == ["-"]:
        return sys.stdin.read()
    path = Path(parts[0])
    if len(parts) == 1 and path.is_file():
        try:
            return path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            raise UserError(f"Cannot read the orders file {parts[0]}; check the path.") from None
    if len(parts) == 1 and (path.suffix or "/" in parts[0]):
        raise UserError(f"Cannot read the orders file {parts[0]}; check the path.")
    return "\n".join(parts)


def run(args: Namespace) -> int:
    text = _order_text(args.orders)
    if text.strip().upper() == "STATUS":
        with open_reader(args) as moderator:  # only reads
            print(character_status(moderator, args.game, args.player), end="")
        return 0

    return run_and_send(
        args, lambda moderator: submit_orders(moderator, args.game, args.player, text)
    )
