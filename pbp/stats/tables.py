"""The tables of `pbp stats`: per player, per role, per team and per setup, each win rate
with its Wilson 95 % interval (docs/balance.md: Statistics across games)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from pbp.balance.intervals import wilson
from pbp.stats.finished import FinishedGame, seats_of

Row = dict[str, Any]


def rate_columns(wins: int, games: int) -> Row:
    low, high = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 4) if games else 0.0,
        "low": round(low, 4),
        "high": round(high, 4),
    }


def per_player(games: list[FinishedGame]) -> list[Row]:
    seen: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"games": 0, "wins": 0, "survived": 0, "roles": set(), "teams": set()}
    )
    for _game, seat in seats_of(games):
        row = seen[seat.player]
        row["games"] += 1
        row["wins"] += seat.won
        row["survived"] += seat.survived
        row["roles"].add(seat.role)
        row["teams"].add(seat.team)
    return [
        {
            "player": player,
            **rate_columns(row["wins"], row["games"]),
            "survival": round(row["survived"] / row["games"], 4),
            "roles": " ".join(sorted(row["roles"])),
            "teams": " ".join(sorted(row["teams"])),
        }
        for player, row in sorted(seen.items())
    ]


def per_role(games: list[FinishedGame]) -> list[Row]:
    """Win rates per role within each ruleset, counted in seats: a role may be dealt to
    several players of a game, on different teams (an Infiltration class)."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for game, seat in seats_of(games):
        count = counts[(game.ruleset, seat.role)]
        count[0] += seat.won
        count[1] += 1
    return [
        {"ruleset": ruleset, "role": name, **rate_columns(wins, total)}
        for (ruleset, name), (wins, total) in sorted(counts.items())
    ]


def per_team(games: list[FinishedGame]) -> list[Row]:
    """Win rates per team within each ruleset, counted in games, not seats: a game counts
    once for each team in it, and is won by the team when it is among the game's winners."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for game in games:
        for team in sorted({seat.team for seat in game.seats if seat.team}):
            count = counts[(game.ruleset, team)]
            count[0] += team in game.winners
            count[1] += 1
    return [
        {"ruleset": ruleset, "team": name, **rate_columns(wins, total)}
        for (ruleset, name), (wins, total) in sorted(counts.items())
    ]


def per_setup(games: list[FinishedGame]) -> list[Row]:
    """Each setup's games and how often each team won it."""
    by_setup: dict[str, list[FinishedGame]] = defaultdict(list)
    for game in games:
        by_setup[game.setup].append(game)
    rows = []
    for setup, played in sorted(by_setup.items()):
        teams = sorted(
            {team for game in played for team in game.winners}
            | {seat.team for game in played for seat in game.seats if seat.team}
        )
        for team in teams + ["draw"]:
            wins = sum(
                1
                for game in played
                if team in game.winners or (team == "draw" and not game.winners)
            )
            if wins or team != "draw":
                rows.append({"setup": setup, "team": team, **rate_columns(wins, len(played))})
    return rows


def all_tables(games: list[FinishedGame]) -> dict[str, list[Row]]:
    return {
        "players": per_player(games),
        "roles": per_role(games),
        "teams": per_team(games),
        "setups": per_setup(games),
    }
