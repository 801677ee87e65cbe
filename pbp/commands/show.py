"""`pbp show <game> [--svg FILE]`: the host's map of an Infiltration game, printed as the
text grid (`pbp.facility_map.text_map`) and, with `--svg`, written as an SVG picture."""
from __future__ import annotations

from pathlib import Path

from pbp.commands._game_command import register_game_command
from pbp.commands.common import open_reader
from pbp.errors import UserError
from pbp.facility_map import svg_map, text_map
from pbp.game.record import load


def register(subparsers) -> None:
    register_game_command(subparsers, "show", run=run,
                          help="print the host's map of an Infiltration game (everything, as it stands)",
                          arguments=[("--svg", {"metavar": "FILE",
                                                "help": "also write the map as an SVG picture to FILE"})])


def run(args) -> int:
    with open_reader(args) as moderator:  # only reads: no lock, never waits
        game = load(moderator, args.game)
        host_view = getattr(game.rules, "host_view", None)
        if host_view is None:
            raise UserError(f"Game {args.game} is a {game.record['ruleset']} game; "
                            "pbp show draws the map of Infiltration games only.")
        view = host_view(game.state)
    if args.svg:
        try:
            Path(args.svg).write_text(svg_map(view), encoding="utf-8")
        except OSError as error:
            raise UserError(f"Cannot write the map to {args.svg}: {error.strerror}; give a writable file path.")
    print(text_map(view), end="")
    if args.svg:
        print(f"The map is written to {args.svg}.")
    return 0
