"""`pbp export <game> [FILE]`: one game, with everything it owns, to one archive that
`pbp import` loads elsewhere (docs/design.md: Backup, restore and moving a game)."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands.common import GAME_HELP, Subparsers, add_settings_arguments


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "export", help="write one game to an archive, to move it to another data folder"
    )
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="the archive to write (default: <game>.pbp-game.tar.gz)",
    )
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    from pathlib import Path

    from pbp.commands.common import lock_wait, say_waiting, settings_of
    from pbp.storage.game_move import export_game

    target = Path(args.file or f"{args.game}.pbp-game.tar.gz")
    export_game(settings_of(args).data, args.game, target, lock_wait(), say_waiting)
    print(
        f"Exported game {args.game} to {target}; `pbp import {target}` loads it into another data"
        " folder."
    )
    return 0
