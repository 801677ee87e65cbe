"""`pbp restore FILE --data DIR`: lay a backup out as a data folder that holds no game
(docs/design.md: Backup, restore and moving a game)."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands.common import Subparsers, add_settings_arguments


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "restore", help="lay a backup out as a new data folder (never over one that holds games)"
    )
    parser.add_argument("file", metavar="FILE", help="the archive `pbp backup` wrote")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    from pathlib import Path

    from pbp.commands.common import settings_of
    from pbp.storage.backup import restore

    data = Path(args.data) if args.data else settings_of(args).data
    count = restore(Path(args.file), data)
    print(f"Restored {count} files into {data}; `pbp run` carries the games on from there.")
    return 0
