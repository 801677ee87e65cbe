"""`pbp simulate <ruleset> --players N --games K --seed S [--jobs J] [--json]`."""
from __future__ import annotations

import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Mapping

import engine
from engine.core import GameSetupError, Ruleset
from engine.simulation import GameRecord, game_seed, play_games, play_record, summarize
from pbp.errors import UserError
from pbp.progress import ProgressBar


def register(subparsers) -> None:
    parser = subparsers.add_parser("simulate", help="play many games with scripted players and print statistics")
    parser.add_argument("ruleset", choices=engine.rulesets(), help="which game to play")
    parser.add_argument("--players", type=int, required=True, help="players in each game")
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument("--seed", default="1", help="seed of the run; game i uses SEED/i (default 1)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option, as in new-game (repeatable)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: every core); the output does not depend on it")
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
    if args.jobs < 1:
        raise UserError("--jobs must be at least 1; leave it out to use every core.")
    rules = engine.ruleset(args.ruleset)
    progress = ProgressBar(args.games, f"{args.ruleset} {args.players}p")
    try:
        records = play_in_parallel(rules, args.players, args.games, args.seed,
                                   parse_options(args.option), args.jobs, progress.update)
    except GameSetupError as error:
        raise UserError(str(error)) from None
    summary = summarize(records)
    if args.json:
        print(json.dumps(summary, indent=2, sort_keys=True))
    else:
        print(format_summary(args.ruleset, args.players, summary))
    return 0


_worker_rules: Ruleset | None = None


def _adopt_rules(rules: Ruleset) -> None:
    global _worker_rules  # one ruleset per worker process, set once when it starts
    _worker_rules = rules


def _play_one(players: int, seed: str, options: Mapping[str, Any]) -> GameRecord:
    assert _worker_rules is not None
    return play_record(_worker_rules, players, seed, options)


def play_in_parallel(rules: Ruleset, players: int, games: int, seed: Any, options: Mapping[str, Any],
                     jobs: int, on_game: Callable[[int], None] | None = None) -> list[GameRecord]:
    """The same records as `play_games`, in the same order, played by `jobs` processes.

    Each game has its own seed, so which process plays it changes nothing. Workers are
    forked, so they inherit the ruleset with any role modules the settings loaded.
    """
    jobs = min(jobs, games)
    if jobs == 1:
        return play_games(rules, players, games, seed, options, on_game)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_adopt_rules, initargs=(rules,)) as pool:
        futures = [pool.submit(_play_one, players, game_seed(seed, index), options) for index in range(games)]
        records = []
        for future in futures:
            records.append(future.result())
            if on_game:
                on_game(len(records))
    return records


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
