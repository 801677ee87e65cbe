"""`pbp simulate <ruleset> --players N --games K --seed S [--json]`."""
from __future__ import annotations

import json

import engine
from engine.core import GameSetupError
from engine.simulation import play_games, summarize
from pbp.errors import UserError
from pbp.progress import ProgressBar


def register(subparsers) -> None:
    parser = subparsers.add_parser("simulate", help="play many games with scripted players and print statistics")
    parser.add_argument("ruleset", choices=engine.rulesets())
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")
    parser.set_defaults(run=run)


def parse_options(pairs: list[str]) -> dict:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UserError(f"Option {pair!r} is not KEY=VALUE; write it like --option tie=random.")
        options[key.strip()] = value.strip()
    return options


def run(args) -> int:
    if args.games < 1:
        raise UserError("--games must be at least 1.")
    rules = engine.ruleset(args.ruleset)
    progress = ProgressBar(args.games, f"{args.ruleset} {args.players}p")
    try:
        records = play_games(rules, args.players, args.games, args.seed,
                             parse_options(args.option), on_game=progress.update)
    except GameSetupError as error:
        raise UserError(str(error)) from None
    summary = summarize(records)
    if args.json:
        print(json.dumps(summary, indent=2, sort_keys=True))
    else:
        print(format_summary(args.ruleset, args.players, summary))
    return 0


def format_summary(ruleset: str, players: int, summary: dict) -> str:
    lines = [f"{summary['games']} games of {ruleset}, {players} players; mean turns {summary['mean_turns']}"]
    for title, key in (("Wins by team", "wins_by_team"), ("Wins by path", "wins_by_path"),
                       ("Deaths by cause", "deaths_by_cause"), ("Actions used", "actions_used")):
        lines.append(f"{title}:")
        counts = summary[key]
        if not counts:
            lines.append("  (none)")
        for name, count in counts.items():
            lines.append(f"  {name:<28} {count}")
    return "\n".join(lines)
