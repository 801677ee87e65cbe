"""`pbp resume <game>`: restart a paused game's clock with the time it had left."""
from __future__ import annotations

from pbp.commands.common import add_settings_arguments, open_moderator
from pbp.host.operations import resume
from pbp.host.sending import send_queued
from pbp.timezones import render_moment


def register(subparsers) -> None:
    parser = subparsers.add_parser("resume", help="restart a paused game with the time it had left")
    parser.add_argument("game")
    parser.add_argument("--no-send", action="store_true", help="queue the notices but do not send them now")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    with open_moderator(args) as moderator:
        deadline = resume(moderator, args.game)
        print(f"Game {args.game} resumed; the deadline is {render_moment(deadline)}.")
        print(send_queued(moderator, not args.no_send))
    return 0
