"""The plot of `pbp stats`: win rates per role and per team with their 95 % intervals."""

from __future__ import annotations

from pathlib import Path

from pbp.balance.plots import plt, save
from pbp.stats.tables import Row
from pbp.stats.text import spelled


def draw(tables: dict[str, list[Row]], path: Path) -> None:
    figure, axes = plt.subplots(1, 2, figsize=(10, 4.5))
    for panel, (name, key) in zip(axes, (("roles", "role"), ("teams", "team"))):
        rows = tables[name]
        labels = [f"{spelled(row[key])} ({spelled(row['ruleset'])})" for row in rows]
        rates = [100 * row["win_rate"] for row in rows]
        below = [100 * (row["win_rate"] - row["low"]) for row in rows]
        above = [100 * (row["high"] - row["win_rate"]) for row in rows]
        panel.barh(labels, rates, xerr=[below, above], capsize=3, color="0.6")
        panel.set_xlim(0, 100)
        panel.set_xlabel(f"{'seats' if key == 'role' else 'games'} won (%), 95 % interval")
        panel.set_title(f"win rate per {key}")
    save(figure, path)
