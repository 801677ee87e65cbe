"""`pbp balance <ruleset> --players N [--skill S] [--precision P | --games G] [--option K=V]
[--map FILE] [--seed S] [--jobs J] [--sweep] [--suggest] [--plot FILE] [--json]`
(docs/balance.md).

Plays enough games of one setup (a size, a role list or map, options) for every win rate's
95 % interval to be at most ±P, and prints the setup it played, each team's win rate with
its Wilson interval, the mean game length, the deaths per game by cause and a verdict
against the balanced band; `--suggest` then plays the setups one step away and prints the
fairest. A plot of the win rates against the players (several sizes: `--players 8-20`) or
the skill (several skills, or `--sweep`: the skill from 0 to 1) is drawn when there are
several points or `--plot` is given.
"""

from __future__ import annotations

from argparse import ArgumentParser, Namespace
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import engine
from engine.core import GameSetupError, Ruleset
from engine.players import DEFAULT_SKILL, Skill
from pbp.balance.estimate import Estimate, estimate
from pbp.balance.intervals import games_for_half_width
from pbp.balance.runs import play_in_parallel
from pbp.balance.skills import SkillError, parse_skills, skill_axis
from pbp.commands.simulate import parse_options
from pbp.errors import UserError
from pbp.commands.progress import ProgressBar
from pbp.commands.common import Subparsers
from pbp.commands.balance_report import json_report, report, suggestion_report

if TYPE_CHECKING:
    from pbp.balance.suggest import Suggestion

SKILL_SWEEP = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "balance", help="estimate who wins a setup: win rates with intervals and a plot"
    )
    _add_setup_arguments(parser)
    _add_run_arguments(parser)
    parser.set_defaults(run=run)


def _add_setup_arguments(parser: ArgumentParser) -> None:
    """What is played: the game, the sizes and skills, how many games, the options."""
    parser.add_argument("ruleset", choices=engine.rulesets(), help="which game")
    parser.add_argument(
        "--players",
        required=True,
        metavar="N",
        help="players: one size (15), a range (8-20) or a list (8,10,12)",
    )
    parser.add_argument(
        "--skill",
        default=str(DEFAULT_SKILL),
        metavar="S",
        help=(
            "the scripted players' skill, 0 to 1, for both sides (0.4) or one per side "
            "(village=0.4,wolves=0.6), or several (0,0.5,1; two-sided ones joined by ;); "
            f"default {DEFAULT_SKILL:g}"
        ),
    )
    parser.add_argument(
        "--precision",
        type=float,
        default=0.04,
        metavar="P",
        help="the widest half-width of a win rate's 95%% interval, as a fraction (default 0.04)",
    )
    parser.add_argument("--games", type=int, help="games per setup (instead of --precision)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, as in new-game (repeatable), e.g. roles=werewolf,seer,…",
    )
    parser.add_argument("--map", metavar="FILE", help="Infiltration: the host's map file")
    parser.add_argument("--seed", default="balance", help="seed of the run (default balance)")


def _add_run_arguments(parser: ArgumentParser) -> None:
    """How it is played and shown: the workers, the sweep, the suggestions, the plot."""
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes (default: every core); the output does not depend on it",
    )
    parser.add_argument(
        "--sweep",
        action="store_true",
        help="also play the setup at the skills 0, 0.2, … 1, for the plot against the skill",
    )
    parser.add_argument(
        "--suggest",
        action="store_true",
        help=(
            "also play the setups one step away (a wolf more or fewer, a role swapped, the Red "
            "count) and print the fairest"
        ),
    )
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help=(
            "the plot's file, .svg or .png (default balance-RULESET.svg, drawn for several points)"
        ),
    )
    parser.add_argument("--json", action="store_true", help="print the estimates as JSON")


def numbers(text: str, what: str, kind: type) -> list[Any]:
    """`15`, `8-20` or `8,10,12`."""
    try:
        if kind is int and "-" in text:
            first, last = (int(part) for part in text.split("-", 1))
            return list(range(first, last + 1))
        return [kind(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise UserError(
            f"{what} {text!r} is not understood; write it like 15, 8-20 or 8,10,12."
        ) from None


def run(args: Namespace) -> int:
    sizes = numbers(args.players, "--players", int)
    skills = _checked_skills(args, sizes)
    options = _options(args)
    rules = engine.ruleset(args.ruleset)
    across = "players" if len(sizes) > 1 else "skill"
    points = _points(sizes, skills, args.sweep)
    games = args.games or games_for_half_width(args.precision)
    estimates = play_points(args, points, games, options)
    main = [e for e in estimates if e.skill in skills and e.players in sizes]
    plot = (
        Path(args.plot or f"balance-{args.ruleset}.svg") if args.plot or len(points) > 1 else None
    )
    if plot:
        _draw(args.ruleset, estimates, across, sizes[0], skills[0], plot)
    suggestions = (
        suggest_around(args, rules, sizes[0], skills[0], games, options) if args.suggest else []
    )
    if args.json:
        print(json_report(args.ruleset, rules, main, suggestions, plot, options))
    else:
        print(
            report(
                args.ruleset,
                main,
                estimates,
                games,
                args.games is None and args.precision,
                plot,
                options,
            )
        )
        if args.suggest:
            print(suggestion_report(args, suggestions, sizes[0], skills[0]))
    return 0


def _points(sizes: list[int], skills: list[Skill], sweep: bool) -> list[tuple[int, Skill]]:
    """Every (size, skill) to play: the ones asked for, then with `--sweep` the sweep's
    skills not asked for already."""
    points = [(size, skill) for size in sizes for skill in skills]
    if sweep and len(sizes) == 1:
        points += [
            (sizes[0], Skill.of(skill)) for skill in SKILL_SWEEP if Skill.of(skill) not in skills
        ]
    return points


def _draw(
    ruleset: str, estimates: list[Estimate], across: str, size: int, skill: Skill, plot: Path
) -> None:
    """The plot of the win rates against the players or the skill."""
    from pbp.balance.plots import win_rates  # matplotlib loads only for the commands that draw

    title = f"{ruleset.title()}, " + (
        f"{size} players" if across == "skill" else f"skill {skill.label()}"
    )
    win_rates(
        sorted(estimates, key=lambda e: (e.players, e.skill.village, e.skill.wolves)),
        across,
        title,
        plot,
    )


def _checked_skills(args: Namespace, sizes: list[int]) -> list[Skill]:
    """The skills asked for, once every problem of the command line is found: all are
    told in one line, and nothing is played."""
    skills, problems = parse_skills(args.skill)
    given = len(skills) + len(problems)  # a skill written wrong still counts as one given
    problems += [f"--players {size} is fewer than 2." for size in sizes if size < 2]
    if args.jobs < 1:
        problems.append("--jobs must be at least 1; leave it out to use every core.")
    if args.games is not None and args.games < 1:
        problems.append("--games must be at least 1.")
    if not 0.0 < args.precision < 0.5:
        problems.append("--precision must lie between 0 and 0.5, like --precision 0.03.")
    if not sizes or not given or len(sizes) > 1 and given > 1:
        problems.append("Give several sizes or several skills, not both; the plot has one axis.")
    if args.suggest and (len(sizes) > 1 or given > 1):
        problems.append("--suggest looks around one setup; give one size and one skill.")
    if args.sweep and len(skills) == 1 and skills[0].single is None:
        problems.append(
            "--sweep plays one skill for both sides from 0 to 1; give --skill as one number "
            "or several skills instead of --sweep."
        )
    if len(skills) > 1 and not problems:
        try:
            skill_axis(skills)
        except SkillError as error:
            problems.append(str(error))
    if problems:
        raise UserError(" ".join(problems))
    return skills


def _options(args: Namespace) -> dict[str, Any]:
    """The setup's options, with a map file's text read in."""
    options = parse_options(args.option)
    if args.map:
        try:
            options["map"] = Path(args.map).read_text(encoding="utf-8")
        except OSError as error:
            raise UserError(
                f"Cannot read the map file {args.map} ({error.strerror}); check the path."
            ) from None
    return options


def play_points(
    args: Namespace, points: list[tuple[int, Skill]], games: int, options: dict[str, Any]
) -> list[Estimate]:
    rules = engine.ruleset(args.ruleset)
    progress = ProgressBar(games * len(points), f"{args.ruleset} balance")
    estimates = []
    for index, (size, skill) in enumerate(points):

        def moved(done: int, before: int = index * games) -> None:
            progress.update(before + done)

        try:
            records = play_in_parallel(
                rules,
                size,
                games,
                f"{args.seed}/{size}/{skill.label()}",
                options,
                args.jobs,
                moved,
                skill,
            )
        except GameSetupError as error:
            raise UserError(str(error)) from None
        estimates.append(estimate(records, size, skill))
    return estimates


def suggest_around(
    args: Namespace, rules: Ruleset, players: int, skill: Skill, games: int, options: dict[str, Any]
) -> list[Suggestion]:
    from pbp.balance.suggest import suggest  # scipy's intervals are loaded by then anyway

    nearby = len(rules.card.setup_variants.nearby(players, options)) + 1
    progress = ProgressBar(games * nearby, f"{args.ruleset} nearby setups")
    return suggest(rules, players, options, games, skill, args.seed, args.jobs, progress.update)
