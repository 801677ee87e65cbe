"""`pbp submit <game> <player> <file>`: the host enters orders for an NPC or a player
(order lines, or a whole BEGIN ORDERS block; `-` reads them from standard input). In a game
with the option `resolve_when_all_in`, the order that completes the phase resolves it."""
from __future__ import annotations

import sys
from pathlib import Path

from pbp.commands._game_command import register_game_command, run_and_send
from pbp.errors import UserError
from pbp.game.resolution import resolve_if_all_in
from pbp.host.orders import submit


def register(subparsers) -> None:
    register_game_command(
        subparsers, "submit", run=run, no_send="queue the player's receipt but do not send it now",
        help="enter orders for an NPC or a player, through the same parser",
        arguments=[("player", {"help": "the NPC or player whose orders these are"}),
                   ("file", {"help": "a file of order lines or a BEGIN ORDERS block; - for standard input"})])


def run(args) -> int:
    if args.file == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(args.file).read_text(encoding="utf-8-sig")
        except OSError:
            raise UserError(f"Cannot read the orders file {args.file}; check the path.") from None

    def act(moderator):
        accepted = submit(moderator, args.game, args.player, text)
        yield f"Accepted for {args.player}:"
        yield from (f"  {line}" for line in accepted or ["(no orders: the rules' default applies)"])
        # option resolve_when_all_in: the last order in resolves the phase at once
        summary = resolve_if_all_in(moderator, args.game)
        if summary is not None:
            yield summary.resolved_early(with_game=False)

    return run_and_send(args, act)
