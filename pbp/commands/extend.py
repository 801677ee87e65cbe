"""`pbp extend <game> <when>`: move the current deadline by a duration (`2h`, `1d12h`) or to
an absolute time with a zone (`"2026-12-01 18:00 Europe/Berlin"`); players are told."""
from __future__ import annotations

from pbp.commands.common import add_settings_arguments, open_moderator
from pbp.host.operations import extend
from pbp.host.sending import send_queued
from pbp.timezones import render_moment


def register(subparsers) -> None:
    parser = subparsers.add_parser("extend", help="move a game's current deadline (by a duration or to a time)")
    parser.add_argument("game")
    parser.add_argument("when", nargs="+", help="2h, 1d12h, or a time with a zone: 2026-12-01 18:00 Europe/Berlin")
    parser.add_argument("--no-send", action="store_true", help="queue the notices but do not send them now")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    with open_moderator(args) as moderator:
        deadline = extend(moderator, args.game, " ".join(args.when))
        print(f"Game {args.game}: the deadline is now {render_moment(deadline)}.")
        print(send_queued(moderator, not args.no_send))
    return 0
