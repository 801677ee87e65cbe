"""`pbp reply <game> <player> <text>`: the host answers a player's message to the host
(docs/design.md: Conversations); only that player gets it."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import register_game_command, run_and_send
from pbp.conversations.host_side import reply_command
from pbp.commands.common import Subparsers


def register(subparsers: Subparsers) -> None:
    register_game_command(
        subparsers,
        "reply",
        run=run,
        help="answer a player's message to the host",
        no_send="queue the answer but do not send it now",
        arguments=[
            ("player", {"help": "the player's character name"}),
            ("text", {"help": "the answer"}),
        ],
    )


def run(args: Namespace) -> int:
    return run_and_send(
        args,
        lambda moderator: (
            f"Answer sent to {reply_command(moderator, args.game, args.player, args.text)}."
        ),
    )
