"""What `pbp balance` prints (docs/balance.md): the report of each setup played, the
nearby setups `--suggest` found, or both as JSON."""

from __future__ import annotations

import json
from argparse import Namespace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

import engine
from engine.core import Ruleset
from engine.players import DEFAULT_SKILL, Skill
from pbp.balance.estimate import Estimate
from pbp.balance.verdict import Verdict, verdict

if TYPE_CHECKING:
    from pbp.balance.suggest import Suggestion


def kind(judged: Verdict | None) -> str | None:
    return judged.kind if judged else None


def shown_options(options: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in options.items() if key != "map"}


def played(rules: Ruleset, players: int, options: Mapping[str, Any]) -> str:
    return rules.card.setup_variants.played(players, options)


def json_report(
    ruleset: str,
    rules: Ruleset,
    main: list[Estimate],
    suggestions: list[Suggestion],
    plot: Path | None,
    options: Mapping[str, Any],
) -> str:
    """The estimates, the suggestions and the plot's file as JSON (`--json`)."""
    return json.dumps(
        {
            "ruleset": ruleset,
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
    stated = f"each rate within ±{100 * precision:g} points" if precision else "as many as asked"
    given = ", ".join(
        f"{key}={value}" for key, value in sorted(shown_options(options).items()) if key != "roles"
    )
    lines = [
        f"{ruleset.title()}: {games} games per setup ({stated}, 95 % Wilson intervals)",
        f"options: {given or 'the defaults'}" + ("; the host's map" if "map" in options else ""),
    ]
    for e in main:
        lines += _setup_lines(rules, e, options)
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


def _setup_lines(rules: Ruleset, e: Estimate, options: Mapping[str, Any]) -> list[str]:
    """One setup's part of the report: its win rates, length, deaths and verdict."""
    lines: list[str] = []
    default = " (default)" if e.skill == Skill.of(DEFAULT_SKILL) else ""
    lines.append(
        f"\n{e.players} players, skill {e.skill.label()}{default}:"
        f" {played(rules, e.players, options)}"
    )
    for team, rate in e.wins.items():
        lines.append(f"  {team:<14}{rate.words()}")
    lines.append(f"  mean length   {e.mean_length:.2f} {rules.card.length_unit}")
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
    return lines


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
