"""Plots of balance estimates (docs/balance.md), drawn with matplotlib into SVG or PNG files
that are the same bytes for the same numbers (no dates, fixed ids)."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import matplotlib

matplotlib.use("Agg")  # files only, never a window
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from pbp.balance.estimate import Estimate  # noqa: E402

plt.rcParams["svg.hashsalt"] = "pbp"
plt.rcParams["svg.fonttype"] = "none"
# pyplot is handed on from here, so that whoever draws gets it with the Agg backend chosen.
__all__ = ["BALANCED", "error_bars", "plt", "save", "win_rates"]
BALANCED = (0.4, 0.6)  # the band a balanced setup's village rate lies in


def save(figure: Figure, path: Path) -> None:
    """Write the figure; the format follows the file's extension (.svg or .png)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    metadata = {"Date": None} if path.suffix.lower() == ".svg" else {}
    figure.savefig(path, metadata=metadata)
    plt.close(figure)


def error_bars(axes: Axes, xs: Sequence[float], estimates: Sequence[Estimate], team: str, **style: object) -> None:
    rates = [e.wins[team].value if team in e.wins else 0.0 for e in estimates]
    lows = [rate - (e.wins[team].interval[0] if team in e.wins else 0.0) for rate, e in zip(rates, estimates)]
    highs = [(e.wins[team].interval[1] if team in e.wins else 0.0) - rate for rate, e in zip(rates, estimates)]
    axes.errorbar(xs, [100 * r for r in rates], yerr=[[100 * d for d in lows], [100 * d for d in highs]],
                  capsize=3, marker="o", markersize=4, label=team, **style)  # type: ignore[arg-type]


def win_rates(estimates: Sequence[Estimate], across: str, title: str, path: Path) -> None:
    """Each team's win rate with its 95 % interval against `across` (`players` or `skill`),
    over the 40-60 % band of a balanced game."""
    figure, axes = plt.subplots(figsize=(7, 4.2))
    xs = [float(getattr(e, across)) for e in estimates]
    teams = sorted({team for e in estimates for team in e.wins})
    for team in teams:
        error_bars(axes, xs, estimates, team)
    axes.axhspan(100 * BALANCED[0], 100 * BALANCED[1], color="0.9", zorder=0, label="balanced (40-60 %)")
    axes.set_xlabel("players" if across == "players" else "skill of the scripted players")
    axes.set_ylabel("games won (%), 95 % interval")
    axes.set_ylim(0, 100)
    axes.set_title(title)
    axes.legend(fontsize="small")
    axes.grid(alpha=0.3)
    save(figure, path)
