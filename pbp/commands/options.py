"""`pbp options <game> [KEY=VALUE …]`: show a running game's moderator options, or change
them (docs/design.md: Reliability rules, Deadlines): `reminders=off`,
`reminders=12h,1h`, `resolve_when_all_in=on`, `wait_for_publish=on` (pbp.game.deadlines)."""
from __future__ import annotations

from argparse import Namespace

from pbp.game.clock import awaited_post
from pbp.commands._game_command import register_game_command
from pbp.commands.common import open_moderator, open_reader, Subparsers
from pbp.commands.simulate import parse_options
from pbp.game.options import OPTIONS
from pbp.game.stored import load
from pbp.host.options_change import change_options
from pbp.commands.sending import send_queued


def register(subparsers: Subparsers) -> None:
    register_game_command(
        subparsers, "options", run=run, help="show or change a game's reminders, early resolution and waiting for publishing",
        arguments=[("changes", {"nargs": "*", "metavar": "KEY=VALUE",
                                "help": "; ".join(f"{key}: {option.help}" for key, option in OPTIONS.items())})])


def run(args: Namespace) -> int:
    given = parse_options(args.changes)
    opener = open_moderator if given else open_reader  # showing only reads
    with opener(args) as moderator:
        waiting_before = given and awaited_post(load(moderator, args.game).record)
        options = change_options(moderator, args.game, given)
        said = "now has" if given else "has"
        print(f"Game {args.game} {said}: " + ", ".join(f"{key}={value}" for key, value in sorted(options.items())) + ".")
        if waiting_before and not awaited_post(load(moderator, args.game).record):
            # wait_for_publish=off started the clock: players hear their deadline now
            print(send_queued(moderator, what="Deadline notices"))
    return 0
