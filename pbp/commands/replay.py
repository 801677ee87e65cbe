"""`pbp replay <game>`: re-run the game from its seed and order log and confirm that it
reproduces the stored game, or show the first step and place where they differ."""
from __future__ import annotations

from pbp.commands.common import add_settings_arguments, open_moderator
from pbp.host.operations import replay_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("replay", help="re-run a game from its order log and check the stored state")
    parser.add_argument("game")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    with open_moderator(args) as moderator:
        report = replay_game(moderator, args.game)
    if report.reproduced:
        print(f"Game {args.game}: the replay of {report.steps} steps reproduces the stored game exactly.")
        return 0
    print(f"Game {args.game}: the replay does NOT reproduce the stored game.")
    print(f"  {report.error or report.divergence}")
    return 1
