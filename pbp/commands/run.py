"""`pbp run`: the daemon — poll the inbox, resolve at deadlines, send the outbox. It holds
the data folder's writer lock only during each cycle, so the host's commands work while it
runs (pbp.daemon.run)."""
from __future__ import annotations

from argparse import Namespace

from pbp.commands.common import add_settings_arguments, settings_of, Subparsers
from pbp.daemon.run import Daemon


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("run", help="run the moderator: poll mail, resolve at deadlines, send mail")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    def say(line: str) -> None:
        print(line, flush=True)

    Daemon(lambda: settings_of(args), say).run()
    say("pbp stopped.")
    return 0
