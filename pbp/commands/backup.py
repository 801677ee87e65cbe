"""`pbp backup [FILE]`: a consistent snapshot of the data folder, taken while `pbp run`
runs (docs/design.md: Backup, restore and moving a game)."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands.common import Subparsers, add_settings_arguments


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "backup",
        help="write a snapshot of the data folder to one archive (safe while `pbp run` runs)",
    )
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="the archive to write (default: pbp-backup-<date>T<time>Z.tar.gz here)",
    )
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    from pathlib import Path

    from pbp import schedule
    from pbp.commands.common import lock_wait, say_waiting, settings_of
    from pbp.storage.backup import backup

    data = settings_of(args).data
    target = Path(args.file or f"pbp-backup-{schedule.now():%Y-%m-%dT%H%M%SZ}.tar.gz")
    count = backup(data, target, lock_wait(), say_waiting)
    print(
        f"Backed up {count} files of {data} to {target}; `pbp restore {target} --data DIR` lays it"
        " out again."
    )
    return 0
