"""`pbp run`: the daemon — poll the inbox, resolve at deadlines, send the outbox. It holds
the data folder's writer lock only during each cycle, so the host's commands work while it
runs (pbp.daemon.run). Its log goes to standard output (pbp.daemon.logs)."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands.common import add_settings_arguments, settings_of, Subparsers
from pbp.daemon import logs
from pbp.daemon.logs import LogToStdout
from pbp.daemon.run import Daemon


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "run", help="run the moderator: poll mail, resolve at deadlines, send mail"
    )
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    settings = settings_of(args)
    with LogToStdout(settings) as log_output:
        Daemon(lambda: settings_of(args), log_output).run()
        logs.info("pbp stopped.")
    return 0
