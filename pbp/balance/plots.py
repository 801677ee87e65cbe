"""Plots of balance estimates (docs/balance.md), drawn with matplotlib into SVG or PNG files
that are the same bytes for the same numbers (no dates, fixed ids)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import matplotlib

matplotlib.use("Agg")  # files only, never a window
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from engine.players import DEFAULT_SKILL  # noqa: E402

from pbp.balance.estimate import Estimate  # noqa: E402
from pbp.balance.skills import skill_axis  # noqa: E402
from pbp.balance.verdict import BAND  # noqa: E402

plt.rcParams["svg.hashsalt"] = "pbp"
plt.rcParams["svg.fonttype"] = "none"
# pyplot is handed on from here, so that whoever draws gets it with the Agg backend chosen.
__all__ = ["MaxNLocator", "error_bars", "plt", "save", "win_rates"]
PNG_WIDTH = 1600  # pixels: a PNG readable on a wide screen and in a forum post


def save(figure: Figure, path: Path) -> None:
    """Write the figure; the format follows the file's extension (.svg or .png)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    if path.suffix.lower() == ".svg":
        figure.savefig(path, metadata={"Date": None})
    else:  # a raster as wide as a screen's worth of detail, whatever the figure's size
        figure.savefig(path, dpi=max(100.0, PNG_WIDTH / figure.get_figwidth()))
    plt.close(figure)


def error_bars(
    axes: Axes, xs: Sequence[float], estimates: Sequence[Estimate], team: str, **style: Any
) -> None:
    rates = [e.wins[team].value if team in e.wins else 0.0 for e in estimates]
    lows = [
        rate - (e.wins[team].interval[0] if team in e.wins else 0.0)
        for rate, e in zip(rates, estimates)
    ]
    highs = [
        (e.wins[team].interval[1] if team in e.wins else 0.0) - rate
        for rate, e in zip(rates, estimates)
    ]
    axes.errorbar(
        xs,
        [100 * r for r in rates],
        yerr=[[100 * d for d in lows], [100 * d for d in highs]],
        capsize=3,
        marker="o",
        markersize=4,
        label=team,
        **style,
    )


def win_rates(estimates: Sequence[Estimate], across: str, title: str, path: Path) -> None:
    """Each team's win rate with its 95 % interval against `across` (`players` or `skill`),
    over the 40-60 % band of a balanced game."""
    figure, axes = plt.subplots(figsize=(7, 4.2))
    if across == "players":
        xs, label = [float(e.players) for e in estimates], "players"
    else:  # the command has checked that the skills share an axis (skill_axis)
        label, xs = skill_axis([e.skill for e in estimates])
    teams = sorted({team for e in estimates for team in e.wins})
    for team in teams:
        error_bars(axes, xs, estimates, team)
    axes.axhspan(
        100 * BAND[0],
        100 * BAND[1],
        color="0.9",
        zorder=0,
        label=f"balanced ({100 * BAND[0]:.0f}-{100 * BAND[1]:.0f} %)",
    )
    if across == "players":
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # no 12.5 players
    else:
        axes.axvline(
            DEFAULT_SKILL,
            color="k",
            linestyle="--",
            linewidth=1,
            label=f"default skill {DEFAULT_SKILL:g}",
        )
    axes.set_xlabel(label)
    axes.set_ylabel("games won (%), 95 % interval")
    axes.set_ylim(0, 100)
    axes.set_title(title)
    axes.legend(fontsize="small")
    axes.grid(alpha=0.3)
    save(figure, path)
