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

from argparse import Namespace
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

import engine
from engine.core import GameSetupError, Ruleset
from engine.players import DEFAULT_SKILL, Skill
from pbp.balance.estimate import Estimate, estimate
from pbp.balance.intervals import games_for_half_width
from pbp.balance.runs import play_in_parallel
from pbp.balance.skills import SkillError, parse_skills, skill_axis
from pbp.balance.verdict import Verdict, verdict
from pbp.commands.simulate import parse_options
from pbp.errors import UserError
from pbp.commands.progress import ProgressBar
from pbp.commands.common import Subparsers

if TYPE_CHECKING:
    from pbp.balance.suggest import Suggestion

SKILL_SWEEP = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "balance", help="estimate who wins a setup: win rates with intervals and a plot"
    )
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
    parser.set_defaults(run=run)


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
    points = [(size, skill) for size in sizes for skill in skills]
    if args.sweep and len(sizes) == 1:
        points += [
            (sizes[0], Skill.of(skill)) for skill in SKILL_SWEEP if Skill.of(skill) not in skills
        ]
    games = args.games or games_for_half_width(args.precision)
    estimates = play_points(args, points, games, options)
    main = [e for e in estimates if e.skill in skills and e.players in sizes]
    plot = (
        Path(args.plot or f"balance-{args.ruleset}.svg") if args.plot or len(points) > 1 else None
    )
    if plot:
        from pbp.balance.plots import win_rates  # matplotlib loads only for the commands that draw

        title = f"{args.ruleset.title()}, " + (
            f"{sizes[0]} players" if across == "skill" else f"skill {skills[0].label()}"
        )
        win_rates(
            sorted(estimates, key=lambda e: (e.players, e.skill.village, e.skill.wolves)),
            across,
            title,
            plot,
        )
    suggestions = (
        suggest_around(args, rules, sizes[0], skills[0], games, options) if args.suggest else []
    )
    if args.json:
        print(
            json.dumps(
                {
                    "ruleset": args.ruleset,
                    "options": shown_options(options),
                    "estimates": [
                        {
                            **e.to_json(),
                            "setup": played(rules, e.players, options),
                            "verdict": kind(verdict(rules.card, e)),
                        }
                        for e in main
                    ],
                    "suggestions": [
                        {
                            "change": s.change,
                            "options": shown_options(s.options),
                            "verdict": s.judged.kind,
                            "dropped_early": s.dropped,
                            **s.found.to_json(),
                        }
                        for s in suggestions
                    ],
                    "plot": str(plot) if plot else None,
                },
                indent=2,
                sort_keys=True,
            )
        )
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


def kind(judged: Verdict | None) -> str | None:
    return judged.kind if judged else None


def shown_options(options: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in options.items() if key != "map"}


def played(rules: Ruleset, players: int, options: Mapping[str, Any]) -> str:
    return rules.card.setup_variants.played(players, options)


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


def report(
    ruleset: str,
    main: list[Estimate],
    all_points: list[Estimate],
    games: int,
    precision: float,
    plot: Path | None,
    options: Mapping[str, Any],
) -> str:
    rules = engine.ruleset(ruleset)
    unit = rules.card.length_unit
    stated = f"each rate within ±{100 * precision:g} points" if precision else "as many as asked"
    given = ", ".join(
        f"{key}={value}" for key, value in sorted(shown_options(options).items()) if key != "roles"
    )
    lines = [
        f"{ruleset.title()}: {games} games per setup ({stated}, 95 % Wilson intervals)",
        f"options: {given or 'the defaults'}" + ("; the host's map" if "map" in options else ""),
    ]
    for e in main:
        default = " (default)" if e.skill == Skill.of(DEFAULT_SKILL) else ""
        lines.append(
            f"\n{e.players} players, skill {e.skill.label()}{default}:"
            f" {played(rules, e.players, options)}"
        )
        for team, rate in e.wins.items():
            lines.append(f"  {team:<14}{rate.words()}")
        lines.append(f"  mean length   {e.mean_length:.2f} {unit}")
        lines.append(
            "  deaths per game: "
            + ", ".join(f"{cause} {count:.2f}" for cause, count in e.deaths.items())
        )
        if e.npc_deaths:
            lines.append(
                "  host-run characters (NPCs) dead per game: "
                + ", ".join(f"{kind} {count:.2f}" for kind, count in e.npc_deaths.items())
            )
        judged = verdict(rules.card, e)
        if judged:
            lines.append(f"  verdict at {skill_words(e.skill)}: {judged.sentence()}")
    extra = [e for e in all_points if e not in main]
    if extra:
        lines.append("\nthe plot's other skills:")
        for e in extra:
            lines.append(
                f"  skill {e.skill.label():<4}"
                + "; ".join(f"{team} {rate.words().strip()}" for team, rate in e.wins.items())
            )
    if plot:
        lines.append(f"\nplot: {plot}")
    return "\n".join(lines)


SHOWN_SUGGESTIONS = 3


def skill_words(skill: Skill) -> str:
    """`skill 1` when both sides share it, else `village skill 0.4, wolves skill 0.6`."""
    if skill.single is not None:
        return f"skill {skill.single:g}"
    return f"village skill {skill.village:g}, wolves skill {skill.wolves:g}"


def suggestion_report(
    args: Namespace, suggestions: list[Suggestion], players: int, skill: Skill
) -> str:
    kept = [s for s in suggestions if not s.dropped]
    given = "" if skill == Skill.of(DEFAULT_SKILL) else f" --skill {skill.label()}"
    lines = [
        f"\nNearby setups, fairest first ({len(suggestions)} tried at {skill_words(skill)}; "
        f"{len(suggestions) - len(kept)} dropped early, clearly outside the band):"
    ]
    if not kept:
        lines.append("  none came near the band; the nearest are:")
    for s in suggestions[:SHOWN_SUGGESTIONS]:
        games = f"dropped after {s.found.games} games" if s.dropped else f"{s.found.games} games"
        words = " ".join(
            f"--option {key}={value}" for key, value in sorted(s.options.items()) if key != "map"
        )
        lines.append(f"  {s.change} ({games}): {s.judged.sentence()}")
        lines.append(f"    pbp balance {args.ruleset} --players {players}{given} {words}".rstrip())
    return "\n".join(lines)
