"""`pbp substitute <game> <old> <new-name> <new-email> [--timezone ZONE] [--forum-name NAME]`,
or `pbp substitute <game> <old> --next`: a newcomer takes over a character (role, history, a
new token; the old token stops working); everyone is told. With `--next` the newcomer is
the first on the game's substitutes' list who does not watch the game
(pbp.signups.substitutes). The newcomer's deadlines are shown in ZONE (default: the old
player's zone); the thread watch follows NAME, the newcomer's forum account (default:
none)."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import register_game_command, run_and_send
from pbp.errors import UserError
from pbp.host.actions import substitute_player
from pbp.commands.common import Subparsers


def register(subparsers: Subparsers) -> None:
    parser = register_game_command(
        subparsers,
        "substitute",
        run=run,
        help="hand a player's character to a newcomer",
        no_send="queue the mails but do not send them now",
        arguments=[
            ("old", {"help": "the character (the old player's name)"}),
            (
                "new_name",
                {
                    "metavar": "new-name",
                    "nargs": "?",
                    "help": "the newcomer's own name (the character keeps its name)",
                },
            ),
            (
                "new_email",
                {"metavar": "new-email", "nargs": "?", "help": "the newcomer's mail address"},
            ),
        ],
    )
    parser.add_argument(
        "--next",
        action="store_true",
        help="the newcomer is the first on the game's substitutes' list (from sign-ups)",
    )
    parser.add_argument(
        "--timezone",
        metavar="ZONE",
        help="the newcomer's time zone, e.g. Europe/Berlin (default: the old player's)",
    )
    parser.add_argument(
        "--language",
        metavar="CODE",
        help=(
            "the language the newcomer reads, e.g. de (default: their sign-up's, else the "
            "old player's)"
        ),
    )
    parser.add_argument(
        "--forum-name",
        metavar="NAME",
        help="the newcomer's forum account, for the thread watch (default: none)",
    )


def run(args: Namespace) -> int:
    if args.next == bool(args.new_name):
        raise UserError(
            "Give either the newcomer's name and address or --next, e.g. pbp substitute g1 Alice "
            "Carol carol@example.org, or pbp substitute g1 Alice --next."
        )
    if args.new_name and not args.new_email:
        raise UserError(
            "Give the newcomer's address after their name, e.g. pbp substitute g1 Alice Carol "
            "carol@example.org."
        )

    return run_and_send(
        args,
        lambda moderator: substitute_player(
            moderator,
            args.game,
            args.old,
            args.new_name,
            args.new_email,
            args.timezone,
            args.forum_name,
            from_list=args.next,
            language=args.language.strip().lower() if args.language else None,
        ),
    )
