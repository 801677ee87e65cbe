"""`pbp run`: the daemon — poll the inbox, resolve at deadlines, send the outbox."""
from __future__ import annotations

import sys

from pbp.commands.common import add_settings_arguments, open_moderator
from pbp.cycle import Cycle
from pbp.daemon import Daemon
from pbp.transport import open_mailbox, open_sender


def register(subparsers) -> None:
    parser = subparsers.add_parser("run", help="run the moderator: poll mail, resolve at deadlines, send mail")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    def say(line: str) -> None:
        print(line, flush=True)

    with open_moderator(args) as moderator:
        cycle = Cycle(moderator, open_mailbox(moderator.settings), open_sender(moderator.settings))
        try:
            Daemon(moderator, cycle, say).run()
        finally:
            cycle.close()
    say("pbp stopped.")
    return 0
