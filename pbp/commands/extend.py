"""`pbp extend <game> <when> [--reason TEXT]`: move the current deadline by a duration (`2h`,
`1d12h`) or to an absolute time with a zone (`"2030-12-01 18:00 Europe/Berlin"`); players
are told, and a short post for the thread is drafted."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import (
    NO_SEND_NOTICES,
    REASON_ARGUMENT,
    register_game_command,
    run_and_send,
)
from pbp.host.actions import extend_deadline
from pbp.commands.common import Subparsers


def register(subparsers: Subparsers) -> None:
    register_game_command(
        subparsers,
        "extend",
        run=run,
        no_send=NO_SEND_NOTICES,
        help="move a game's current deadline (by a duration or to a time)",
        arguments=[
            (
                "when",
                {
                    "nargs": "+",
                    "help": "2h, 1d12h, or a time with a zone: 2030-12-01 18:00 Europe/Berlin",
                },
            ),
            REASON_ARGUMENT,
        ],
    )


def run(args: Namespace) -> int:
    return run_and_send(
        args,
        lambda moderator: extend_deadline(moderator, args.game, " ".join(args.when), args.reason),
    )
