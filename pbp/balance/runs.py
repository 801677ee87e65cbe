"""Many games played over every core (docs/balance.md: Reproducing): each game has its own
seed, so which process plays it changes nothing and the records come back in order."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Mapping

from engine.core import Ruleset
from engine.players import DEFAULT_SKILL, SkillLike
from engine.simulation import PlayedGame, game_seed, play_games, play_record

_worker_rules: Ruleset | None = None


def _adopt_rules(rules: Ruleset) -> None:
    global _worker_rules  # one ruleset per worker process, set once when it starts
    _worker_rules = rules


def _play_one(players: int, seed: str, options: Mapping[str, Any], skill: SkillLike) -> PlayedGame:
    assert _worker_rules is not None
    return play_record(_worker_rules, players, seed, options, skill)


def play_in_parallel(
    rules: Ruleset,
    players: int,
    games: int,
    seed: Any,
    options: Mapping[str, Any],
    jobs: int,
    on_game: Callable[[int], None] | None = None,
    skill: SkillLike = DEFAULT_SKILL,
) -> list[PlayedGame]:
    """The same records as `play_games`, in the same order, played by `jobs` processes.

    Workers are forked, so they inherit the ruleset with any role modules the settings
    loaded.
    """
    jobs = min(jobs, games)
    if jobs == 1:
        return play_games(rules, players, games, seed, options, on_game, skill)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_adopt_rules, initargs=(rules,)
    ) as pool:
        futures = [
            pool.submit(_play_one, players, game_seed(seed, index), options, skill)
            for index in range(games)
        ]
        records = []
        for future in futures:
            records.append(future.result())
            if on_game:
                on_game(len(records))
    return records
