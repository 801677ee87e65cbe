"""`pbp upgrade`: upgrade the data folder to the format this release writes, or complete
an upgrade a kill interrupted (docs/design.md: Releases and upgrades). Any command that
writes does the same when it opens the folder; this one does only that, so a host can
upgrade (and see that it worked) before starting the daemon."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands.common import (
    add_settings_arguments,
    lock_wait,
    say_waiting,
    settings_of,
    Subparsers,
)
from pbp.release import read_stamp
from pbp.composition import open_folder


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "upgrade", help="upgrade the data folder to this release's data format"
    )
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    settings = settings_of(args)
    before = read_stamp(settings.data)
    with open_folder(settings.data, writer=True, wait=lock_wait(), on_wait=say_waiting):
        after = read_stamp(settings.data)
    if before.data_format == after.data_format:
        print(
            f"The data folder {settings.data} holds data format {after.data_format} already;"
            " nothing to upgrade."
        )
    else:
        print(
            f"The data folder {settings.data} is upgraded from data format {before.data_format} to"
            f" {after.data_format}; the old one is kept in"
            f" {settings.data / 'upgrades' / f'format-{before.data_format}'}."
        )
    return 0
