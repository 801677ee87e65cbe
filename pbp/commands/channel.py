"""`pbp channel <game> <channel>`: the channel's messages (`host` for the players' talk
with the host); with `--as NPC --say TEXT`, the host writes to the channel as an NPC it
plays (docs/design.md: Conversations)."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import register_game_command, run_and_send
from pbp.commands.common import open_reader, Subparsers
from pbp.conversations.host_side import speak_command
from pbp.conversations.log import channel_log
from pbp.errors import UserError
from pbp.game.stored import load


def register(subparsers: Subparsers) -> None:
    parser = register_game_command(
        subparsers,
        "channel",
        run=run,
        help="show a channel's messages, or write to it as an NPC",
        no_send="queue the relays but do not send them now",
        arguments=[
            ("channel", {"help": "the channel: reds, pack, masons, lovers, gerbils, … or host"})
        ],
    )
    parser.add_argument("--as", dest="npc", metavar="NPC", help="write as this NPC (with --say)")
    parser.add_argument("--say", metavar="TEXT", help="the message to write as the NPC")


def run(args: Namespace) -> int:
    if bool(args.npc) != bool(args.say):
        raise UserError(
            "Give both --as NPC and --say TEXT to write as an NPC, or neither to read the channel."
        )
    if args.npc:
        return run_and_send(
            args,
            lambda moderator: (
                f"Sent to {args.channel} as"
                f" {speak_command(moderator, args.game, args.npc, args.channel, args.say)}."
            ),
        )
    with open_reader(args) as moderator:  # only reads: no lock, never waits
        print(channel_log(load(moderator, args.game), args.channel))
    return 0
