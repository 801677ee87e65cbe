"""`pbp simulate <ruleset> --players N --games K --seed S [--skill S] [--jobs J] [--json]`."""

from __future__ import annotations

from argparse import Namespace
import json
import os
from typing import Any

import engine
from engine.core import GameSetupError
from engine.players import DEFAULT_SKILL
from engine.simulation import summarize
from pbp.balance.calibration import skill_note
from pbp.balance.runs import play_in_parallel
from pbp.balance.skills import SkillError, parse_skill, skill_json
from pbp.errors import UserError
from pbp.commands.progress import ProgressBar
from pbp.commands.common import Subparsers


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play many games with scripted players and print statistics"
    )
    parser.add_argument("ruleset", choices=engine.rulesets(), help="which game to play")
    parser.add_argument("--players", type=int, required=True, help="players in each game")
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument(
        "--seed", default="1", help="seed of the run; game i uses SEED/i (default 1)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, as in new-game (repeatable)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes (default: every core); the output does not depend on it",
    )
    parser.add_argument(
        "--skill",
        default=str(DEFAULT_SKILL),
        metavar="S",
        help=(
            "the scripted players' skill, 0 (random play) to 1, for both sides or one per "
            f"side (village=0.4,wolves=0.6); default {DEFAULT_SKILL} (docs/balance.md)"
        ),
    )
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")
    parser.set_defaults(run=run)


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UserError(f"Option {pair!r} is not KEY=VALUE; write it like --option tie=random.")
        options[key.strip()] = value.strip()
    return options


def run(args: Namespace) -> int:
    if args.games < 1:
        raise UserError("--games must be at least 1.")
    if args.jobs < 1:
        raise UserError("--jobs must be at least 1; leave it out to use every core.")
    try:
        skill = parse_skill(args.skill)
    except SkillError as error:
        raise UserError(str(error)) from None
    rules = engine.ruleset(args.ruleset)
    progress = ProgressBar(args.games, f"{args.ruleset} {args.players}p")
    try:
        records = play_in_parallel(
            rules,
            args.players,
            args.games,
            args.seed,
            parse_options(args.option),
            args.jobs,
            progress.update,
            skill,
        )
    except GameSetupError as error:
        raise UserError(str(error)) from None
    summary = {**summarize(records), "skill": skill_json(skill)}
    if args.json:
        print(json.dumps(summary, indent=2, sort_keys=True))
    else:
        print(format_summary(args.ruleset, args.players, summary))
        print(skill_note(args.ruleset))
    return 0


def format_summary(ruleset: str, players: int, summary: dict[str, Any]) -> str:
    lines = [
        f"{summary['games']} games of {ruleset}, {players} players, skill"
        f" {skill_words(summary['skill'])}; mean turns {summary['mean_turns']}"
    ]
    for title, key in (
        ("Wins by team", "wins_by_team"),
        ("Wins by path", "wins_by_path"),
        ("Deaths by cause", "deaths_by_cause"),
        ("Host-run characters (NPCs) who died", "npc_deaths"),
        ("Actions used", "actions_used"),
    ):
        if key not in summary:
            continue
        lines.append(f"{title}:")
        counts = summary[key]
        if not counts:
            lines.append("  (none)")
        for name, count in counts.items():
            lines.append(f"  {name:<28} {count}")
    return "\n".join(lines)


def skill_words(skill: float | dict[str, float]) -> str:
    if isinstance(skill, dict):
        return ", ".join(f"{side} {value:g}" for side, value in skill.items())
    return f"{skill:g}"
