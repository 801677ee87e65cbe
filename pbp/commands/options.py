"""`pbp options <game> [KEY=VALUE …]`: show a running game's moderator options, or change
them (docs/design.md: Reliability rules, Deadlines): `reminders=off`,
`reminders=12h,1h`, `resolve_when_all_in=on`, `wait_for_publish=on` (pbp.game.deadlines)."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import register_game_command
from pbp.commands.common import open_moderator, open_reader, Subparsers
from pbp.commands.simulate import parse_options
from pbp.game.options import OPTIONS
from pbp.host.actions import set_options
from pbp.commands.sending import send_queued


def register(subparsers: Subparsers) -> None:
    register_game_command(
        subparsers,
        "options",
        run=run,
        help="show or change a game's reminders, early resolution and waiting for publishing",
        arguments=[
            (
                "changes",
                {
                    "nargs": "*",
                    "metavar": "KEY=VALUE",
                    "help": "; ".join(f"{key}: {option.help}" for key, option in OPTIONS.items()),
                },
            )
        ],
    )


def run(args: Namespace) -> int:
    given = parse_options(args.changes)
    opener = open_moderator if given else open_reader  # showing only reads
    with opener(args) as moderator:
        answer, clock_started = set_options(moderator, args.game, given)
        print(answer)
        if clock_started:  # wait_for_publish=off started the clock: players hear their deadline now
            print(send_queued(moderator, what="Deadline notices"))
    return 0
