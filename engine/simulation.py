"""Whole games played by scripted players, for `pbp simulate` and the demo's engine side.

Pure like the rest of the engine: the same ruleset, player count, seed and options give
the same games.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from engine.core import PlayerSpec, Result, Ruleset

# Distinct, grammar-safe names (no room, floor letter or keyword of either ruleset).
_NAMES = (
    "Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ingrid", "Jonas",
    "Kemal", "Lucia", "Mateo", "Nadia", "Oskar", "Priya", "Quinn", "Rosa", "Soren", "Tariq",
    "Ursula", "Viktor", "Wanda", "Ximena", "Yusuf", "Zora",
)


def player_names(count: int) -> list[str]:
    """`count` distinct names: the list above, then numbered ones (`Alice2` …)."""
    names: list[str] = []
    round_number = 1
    while len(names) < count:
        suffix = "" if round_number == 1 else str(round_number)
        names.extend(f"{name}{suffix}" for name in _NAMES)
        round_number += 1
    return names[:count]


@dataclass(frozen=True)
class GameRecord:
    result: Result | None
    statistics: Mapping[str, Any]


def play_game(rules: Ruleset, players: int, seed: Any, options: Mapping[str, Any] | None = None,
              max_phases: int = 10_000) -> Any:
    """Play one game to its end with every player scripted; returns the final state."""
    state = rules.new_game([PlayerSpec(name) for name in player_names(players)], seed, options or {})
    for _ in range(max_phases):
        phase = rules.phase(state)
        if phase is None:
            return state
        orders = {}
        for actor in phase.actors:
            text = rules.scripted_orders(state, actor, seed)
            orders[actor] = rules.parse_orders(state, actor, text.splitlines())
        state = rules.resolve(state, orders).state
    raise RuntimeError(f"game with seed {seed!r} did not end within {max_phases} phases")


def play_games(rules: Ruleset, players: int, games: int, seed: Any,
               options: Mapping[str, Any] | None = None,
               on_game: Callable[[int], None] | None = None) -> list[GameRecord]:
    """`games` games; game i uses the seed `"<seed>/<i>"`. `on_game(i)` reports progress."""
    records = []
    for index in range(games):
        records.append(play_record(rules, players, game_seed(seed, index), options))
        if on_game:
            on_game(index + 1)
    return records


def game_seed(seed: Any, index: int) -> str:
    """The seed of the `index`-th game of a run: every game of a run is replayable alone."""
    return f"{seed}/{index}"


def play_record(rules: Ruleset, players: int, seed: Any,
                options: Mapping[str, Any] | None = None) -> GameRecord:
    """One game played to its end, kept as its result and statistics."""
    state = play_game(rules, players, seed, options)
    return GameRecord(rules.result(state), rules.game_statistics(state))


def summarize(records: Iterable[GameRecord]) -> dict[str, Any]:
    """Wins by team and by path, mean turns, deaths by cause and actions used, summed."""
    records = list(records)
    wins_by_team: Counter[str] = Counter()
    wins_by_path: Counter[str] = Counter()
    deaths: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    turns = 0
    for record in records:
        winners = "+".join(record.result.winners) if record.result and record.result.winners else "draw"
        wins_by_team[winners] += 1
        wins_by_path[record.result.path if record.result else "unfinished"] += 1
        turns += record.statistics.get("turns", 0)
        deaths.update(record.statistics.get("deaths_by_cause", {}))
        actions.update(record.statistics.get("actions_used", {}))
    return {
        "games": len(records),
        "wins_by_team": dict(sorted(wins_by_team.items())),
        "wins_by_path": dict(sorted(wins_by_path.items())),
        "mean_turns": round(turns / len(records), 3) if records else 0,
        "deaths_by_cause": dict(sorted(deaths.items())),
        "actions_used": dict(sorted(actions.items())),
    }
