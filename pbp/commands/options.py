"""`pbp options <game> [KEY=VALUE …]`: show a running game's moderator options, or change
them (issue 5: "the host can switch [reminders] off per game"): `reminders=off`,
`reminders=12h,1h`, `resolve_when_all_in=on`."""
from __future__ import annotations

from pbp.commands._game_command import register_game_command
from pbp.commands.common import open_moderator, open_reader
from pbp.commands.simulate import parse_options
from pbp.host.operations import change_options


def register(subparsers) -> None:
    register_game_command(
        subparsers, "options", run=run, help="show or change a game's reminders and early resolution",
        arguments=[("changes", {"nargs": "*", "metavar": "KEY=VALUE",
                                "help": "reminders=off|on|12h,1h; resolve_when_all_in=on|off"})])


def run(args) -> int:
    given = parse_options(args.changes)
    opener = open_moderator if given else open_reader  # showing only reads
    with opener(args) as moderator:
        options = change_options(moderator, args.game, given)
    said = "now has" if given else "has"
    print(f"Game {args.game} {said}: " + ", ".join(f"{key}={value}" for key, value in sorted(options.items())) + ".")
    return 0
