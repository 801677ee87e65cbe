"""`pbp status [game]`: games, phases, deadlines, who has orders in, failed mail, mail
from unknown senders, quarantined mail."""
from __future__ import annotations

from pbp.commands.common import add_settings_arguments, settings_of
from pbp.status import status_text
from pbp.store import DataFolder


def register(subparsers) -> None:
    parser = subparsers.add_parser("status", help="show games, deadlines, orders in, and mail problems")
    parser.add_argument("game", nargs="?")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    folder = DataFolder(settings_of(args).data, writer=False)
    try:
        print(status_text(folder, args.game))
    finally:
        folder.close()
    return 0
