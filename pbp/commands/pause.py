"""`pbp pause <game>`: stop the game's clock (no resolution, no reminders); players are told."""
from __future__ import annotations

from pbp.commands.common import add_settings_arguments, open_moderator
from pbp.host.operations import pause
from pbp.host.sending import send_queued
from pbp.timezones import render_remaining


def register(subparsers) -> None:
    parser = subparsers.add_parser("pause", help="stop a game's deadline until `pbp resume`")
    parser.add_argument("game")
    parser.add_argument("--no-send", action="store_true", help="queue the notices but do not send them now")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    with open_moderator(args) as moderator:
        left = pause(moderator, args.game)
        print(f"Game {args.game} is paused with {render_remaining(left)} left.")
        print(send_queued(moderator, not args.no_send))
    return 0
