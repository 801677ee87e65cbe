"""`pbp service [--user USER]`: print the systemd unit that runs `pbp run` for these settings
as a service (pbp.daemon.service_unit; docs/design.md: Running pbp as a service)."""

from __future__ import annotations

from argparse import Namespace
from pathlib import Path

from pbp.commands.common import add_settings_arguments, settings_of, Subparsers


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "service",
        help="print a systemd unit that runs `pbp run` as a service",
        description=(
            "Print a systemd unit for `pbp run` with these settings: restarted on failure, run as "
            "the data folder's owner, allowed to write only there. Save it as "
            "/etc/systemd/system/pbp.service, then `systemctl enable --now pbp`."
        ),
    )
    parser.add_argument(
        "--user",
        metavar="USER",
        help="the user the service runs as (default: the owner of the data folder)",
    )
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    from pbp.daemon.service_unit import (
        account_named,
        owner_of,
        unit_text,
    )  # only this command needs them

    settings = settings_of(args)
    account = account_named(args.user) if args.user else owner_of(Path(settings.data))
    print(unit_text(settings, account, data_given=bool(args.data)), end="")
    return 0
