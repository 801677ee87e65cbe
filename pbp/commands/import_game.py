"""`pbp import FILE`: load a game `pbp export` wrote into this data folder, where it goes
on (docs/design.md: Backup, restore and moving a game)."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands.common import Subparsers, add_settings_arguments


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "import", help="load a game `pbp export` wrote into this data folder"
    )
    parser.add_argument("file", metavar="FILE", help="the archive `pbp export` wrote")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    from pathlib import Path

    from pbp.commands.common import lock_wait, say_waiting, settings_of
    from pbp.composition import open_folder
    from pbp.storage.game_move import import_game

    data = settings_of(args).data
    with open_folder(data, writer=True, wait=lock_wait(), on_wait=say_waiting) as folder:
        game_id = import_game(Path(args.file), folder)
    print(f"Imported game {game_id} into {data}; it goes on with the next cycle of `pbp run`.")
    return 0
