"""`pbp substitute <game> <old> <new-name> <new-email> [--timezone ZONE] [--forum-name NAME]`:
a newcomer takes over a character (role, history, a new token; the old token stops working);
everyone is told. The newcomer's deadlines are shown in ZONE (default: the old player's
zone); the thread watch follows NAME, the newcomer's forum account (default: none)."""
from __future__ import annotations

from pbp.commands._game_command import register_game_command, run_and_send
from pbp.game.record import load
from pbp.host.substitute import substitute


def register(subparsers) -> None:
    parser = register_game_command(
        subparsers, "substitute", run=run, help="hand a player's character to a newcomer",
        no_send="queue the mails but do not send them now",
        arguments=[("old", {"help": "the character (the old player's name)"}),
                   ("new_name", {"metavar": "new-name"}), ("new_email", {"metavar": "new-email"})])
    parser.add_argument("--timezone", metavar="ZONE",
                        help="the newcomer's time zone, e.g. Europe/Berlin (default: the old player's)")
    parser.add_argument("--forum-name", metavar="NAME",
                        help="the newcomer's forum account, for the thread watch (default: none)")


def run(args) -> int:
    def act(moderator):
        substitute(moderator, args.game, args.old, args.new_name, args.new_email, args.timezone,
                   args.forum_name)
        character = load(moderator, args.game).character(args.old)
        return (f"Game {args.game}: {args.new_name.strip()} now plays {character}; the old token no longer works, "
                "and the old player was sent a goodbye.")

    return run_and_send(args, act)
