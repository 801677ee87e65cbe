"""`pbp replay <game>`: re-run the game from its seed and order log and confirm that it
reproduces the stored game, or show the first step and place where they differ."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import register_game_command
from pbp.commands.common import open_reader, Subparsers
from pbp.host.replay import replay_game


def register(subparsers: Subparsers) -> None:
    register_game_command(
        subparsers,
        "replay",
        run=run,
        help="re-run a game from its order log and check the stored state",
    )


def run(args: Namespace) -> int:
    with open_reader(args) as moderator:  # only reads: no lock, never waits
        report = replay_game(moderator, args.game)
    if report.reproduced:
        print(
            f"Game {args.game}: the replay of {report.steps} steps reproduces the stored game"
            " exactly."
        )
        return 0
    print(f"Game {args.game}: the replay does NOT reproduce the stored game.")
    print(f"  {report.explained()}")
    return 1
