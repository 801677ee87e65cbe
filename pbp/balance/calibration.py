"""Calibration (docs/balance.md: Calibration): the scripted players against the exact
random-lynch law at skill 0, and against the human anchors at the skills they stand for.

A cell of the law is a plain game (n players, m of them Werewolves, the rest Villagers),
day first (pbp's quiet night 0) or night first (`first_night=full`), roles shown at death
or not (the law does not depend on it)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import engine
from pbp.balance.intervals import wilson
from pbp.balance.law import village_wins
from pbp.balance.runs import play_in_parallel

# The human anchors (docs/balance.md: The anchors), as pbp setups.
NOVICE_SETUP = {"roles": ",".join(["werewolf"] * 2 + ["villager"] * 8), "first_night": "full", "reveal_roles": "on"}
NOVICE_BAND = (0.17, 0.52)      # 8 village wins of 25 games: 32 % [17, 52]
NOVICE_SKILL = 0.15
STANDARD_SETUP = {"roles": ",".join(["werewolf"] * 3 + ["seer", "apothecary", "bodyguard", "mason", "mason",
                                                        "werehamster"] + ["villager"] * 8)}
STANDARD_RATE = 0.495           # the 17-player standard village of a large Japanese server


def plain_options(players: int, wolves: int, night_first: bool) -> dict[str, str]:
    return {"roles": ",".join(["werewolf"] * wolves + ["villager"] * (players - wolves)),
            "first_night": "full" if night_first else "quiet"}


@dataclass(frozen=True)
class Cell:
    players: int
    wolves: int
    night_first: bool
    games: int
    village_wins: int

    @property
    def exact(self) -> float:
        return float(village_wins(self.players, self.wolves, self.night_first))

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.village_wins, self.games)

    @property
    def inside(self) -> bool:
        low, high = self.interval
        return low <= self.exact <= high


def village_count(records: list[Any]) -> int:
    return sum(1 for record in records if record.result and "village" in record.result.winners)


def law_cell(players: int, wolves: int, night_first: bool, games: int, seed: str = "law", jobs: int = 1,
             on_game: Callable[[int], None] | None = None) -> Cell:
    """One cell of the law, played at skill 0."""
    rules = engine.ruleset("werewolf")
    records = play_in_parallel(rules, players, games, f"{seed}/{players}/{wolves}/{int(night_first)}",
                               plain_options(players, wolves, night_first), jobs, on_game, 0.0)
    return Cell(players, wolves, night_first, games, village_count(records))
