"""The figures and tables of docs/balance.md, made by `scripts/balance-figures`: the exact
law with the simulated points, the village's win rate against skill with the human anchors,
and every source setup at the default skill."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

import engine
from engine.core import Anchor
from engine.players import DEFAULT_SKILL
from pbp.balance.calibration import anchor_rules, calibrated, law_cell, village_count
from pbp.balance.estimate import Estimate, estimate
from pbp.balance.intervals import wilson
from pbp.balance.law import village_wins
from pbp.balance.plots import MaxNLocator, error_bars, plt, save
from pbp.balance.runs import play_in_parallel

if TYPE_CHECKING:
    from matplotlib.axes import Axes

Say = Callable[[str], None]
SKILLS = tuple(round(0.1 * step, 1) for step in range(11))
# The anchors' colours and the alpha of their bands, in the order the calibration lists them.
ANCHOR_STYLES = (("C0", 0.12), ("C1", 0.15))


def law_figure(folder: Path, games: int, jobs: int, say: Say) -> list[str]:
    """The exact law (lines) and skill-0 games (points, 95 % intervals), day and night first."""
    figure, panels = plt.subplots(1, 2, figsize=(11, 4.4), sharey=True)
    rows = [
        "| first | n | m | exact | simulated (95 % interval) | inside |",
        "|---|---|---|---|---|---|",
    ]
    inside = total = 0
    for panel, night_first in zip(panels, (False, True)):
        for wolves, colour in zip(range(1, 5), ("C0", "C1", "C2", "C3")):
            sizes = list(range(5, 26))
            exact = [100 * float(village_wins(n, wolves, night_first)) for n in sizes]
            panel.plot(
                sizes,
                exact,
                color=colour,
                linewidth=1,
                label=f"{wolves} {'wolf' if wolves == 1 else 'wolves'}, exact",
            )
            cells = [law_cell(n, wolves, night_first, games, "figures", jobs) for n in sizes]
            rates = [100 * c.village_wins / c.games for c in cells]
            lows = [r - 100 * c.interval[0] for r, c in zip(rates, cells)]
            highs = [100 * c.interval[1] - r for r, c in zip(rates, cells)]
            panel.errorbar(
                sizes, rates, yerr=[lows, highs], fmt="o", markersize=3, capsize=2, color=colour
            )
            for c in cells:
                inside += c.inside
                total += 1
                low, high = c.interval
                rows.append(
                    f"| {'night' if night_first else 'day'} | {c.players} | {c.wolves} | "
                    f"{100 * c.exact:.1f} | {100 * c.village_wins / c.games:.1f} [{100 * low:.1f}, "
                    f"{100 * high:.1f}] | {'yes' if c.inside else '**no**'} |"
                )
            say(f"law: {'night' if night_first else 'day'} first, {wolves} wolves done")
        panel.set_title(
            f"random lynch, {'night' if night_first else 'day'} first ({games} games a point)"
        )
        panel.set_xlabel("players")
        panel.xaxis.set_major_locator(MaxNLocator(integer=True))
        panel.grid(alpha=0.3)
    panels[0].set_ylabel("village wins (%)")
    panels[0].legend(fontsize="small")
    save(figure, folder / "law.svg")
    return [
        f"{inside} of {total} cells hold the exact value inside their 95 % interval.",
        "",
        *rows,
    ]


def skill_figure(folder: Path, games: int, jobs: int, say: Say) -> list[str]:
    """The village's win rate against skill for the human anchors, with their bands."""
    anchors = calibrated()[1].anchors
    figure, axes = plt.subplots(figsize=(7.5, 4.4))
    rows = [
        "| skill | " + " | ".join(f"{a.name} anchor ({a.size})" for a in anchors) + " |",
        "|---|" + "---|" * len(anchors),
    ]
    found = _play_anchors(anchors, games, jobs, say)
    _draw_anchors(axes, anchors, found)
    axes.set_xlabel("skill of the scripted players")
    axes.set_ylabel("village wins (%), 95 % interval")
    axes.set_ylim(0, 100)
    axes.legend(fontsize="x-small", loc="upper left")
    axes.grid(alpha=0.3)
    save(figure, folder / "skill.svg")
    for skill, *points in zip(SKILLS, *(found[a.name] for a in anchors)):
        rows.append(f"| {skill:g} | " + " | ".join(_cell(point) for point in points) + " |")
    return rows


def _play_anchors(
    anchors: Sequence[Anchor], games: int, jobs: int, say: Say
) -> dict[str, list[tuple[float, float, float]]]:
    """Each anchor played at each skill: the village's win rate and its interval."""
    found: dict[str, list[tuple[float, float, float]]] = {a.name: [] for a in anchors}
    for anchor in anchors:
        for skill in SKILLS:
            records = play_in_parallel(
                anchor_rules(anchor),
                anchor.players,
                games,
                f"figures/skill/{anchor.name}/{skill}",
                anchor.options,
                jobs,
                None,
                skill,
            )
            wins = village_count(records)
            low, high = wilson(wins, games)
            found[anchor.name].append((wins / games, low, high))
        say(f"skill: {anchor.name} anchor done")
    return found


def _draw_anchors(
    axes: Axes, anchors: Sequence[Anchor], found: dict[str, list[tuple[float, float, float]]]
) -> None:
    """The anchors' win rates with their intervals, their bands and their skills."""
    for anchor, (colour, _) in zip(anchors, ANCHOR_STYLES):
        points = found[anchor.name]
        rates = [100 * r for r, _, _ in points]
        axes.errorbar(
            SKILLS,
            rates,
            yerr=[
                [r - 100 * lo for r, (_, lo, _) in zip(rates, points)],
                [100 * hi - r for r, (_, _, hi) in zip(rates, points)],
            ],
            marker="o",
            markersize=4,
            capsize=3,
            color=colour,
            label=f"{anchor.name} anchor: {anchor.setup}",
        )
    for anchor, (colour, alpha) in zip(anchors, ANCHOR_STYLES):
        axes.axhspan(
            100 * anchor.band[0],
            100 * anchor.band[1],
            color=colour,
            alpha=alpha,
            label=anchor.record,
        )
    axes.axvline(
        DEFAULT_SKILL,
        color="k",
        linestyle="--",
        linewidth=1,
        label=f"default skill {DEFAULT_SKILL:g}",
    )
    for anchor in anchors:
        if anchor.skill != DEFAULT_SKILL:
            axes.axvline(
                anchor.skill,
                color="0.5",
                linestyle=":",
                linewidth=1,
                label=f"{anchor.name} skill {anchor.skill:g}",
            )


def _cell(found: tuple[float, float, float]) -> str:
    rate, low, high = found
    return f"{100 * rate:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def setups_figure(folder: Path, ruleset: str, jobs: int, say: Say) -> list[str]:
    """Every source setup of a ruleset at the default skill, at the sizes and with the games
    a point its card's balance study gives."""
    rules = engine.ruleset(ruleset)
    sizes, games = rules.card.balance_study.figure_sizes, rules.card.balance_study.figure_games
    estimates: list[Estimate] = []
    for size in sizes:
        records = play_in_parallel(
            rules, size, games, f"figures/{ruleset}/{size}", {}, jobs, None, DEFAULT_SKILL
        )
        estimates.append(estimate(records, size, DEFAULT_SKILL))
        say(f"{ruleset}: {size} players done")
    figure, axes = plt.subplots(figsize=(8, 4.4))
    for team in sorted({team for e in estimates for team in e.wins}):
        error_bars(axes, [e.players for e in estimates], estimates, team)
    axes.axhspan(40, 60, color="0.9", zorder=0, label="balanced (40-60 %)")
    axes.set_xlabel("players (the source's setup for each size)")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylabel("games won (%), 95 % interval")
    axes.set_ylim(0, 100)
    axes.set_title(f"{ruleset} at the default skill {DEFAULT_SKILL:g} ({games} games a point)")
    axes.legend(fontsize="small")
    axes.grid(alpha=0.3)
    save(figure, folder / f"setups-{ruleset}.svg")
    teams = sorted({team for e in estimates for team in e.wins})
    rows = [
        "| players | " + " | ".join(teams) + " | mean length |",
        "|---|" + "---|" * (len(teams) + 1),
    ]
    for e in estimates:
        cells = [
            e.wins[team].words().replace("  ", " ").strip() if team in e.wins else "–"
            for team in teams
        ]
        rows.append(f"| {e.players} | " + " | ".join(cells) + f" | {e.mean_length:.1f} |")
    return rows
