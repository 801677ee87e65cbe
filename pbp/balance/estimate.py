"""One setup's estimate from its games (docs/balance.md: Reading `pbp balance`): each team's
win rate with its Wilson 95 % interval, draws, mean game length, the players' deaths per
game by cause and, apart, the host-run characters' (NPCs)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from engine.players import Skill, SkillLike
from engine.simulation import PlayedGame
from pbp.balance.intervals import wilson
from pbp.balance.skills import skill_json

DRAW = "draw"


@dataclass(frozen=True)
class Rate:
    count: int
    games: int

    @property
    def value(self) -> float:
        return self.count / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.count, self.games)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "wins": self.count,
            "rate": round(self.value, 4),
            "low": round(low, 4),
            "high": round(high, 4),
        }

    def words(self) -> str:
        low, high = self.interval
        return f"{100 * self.value:5.1f} %  [{100 * low:5.1f}, {100 * high:5.1f}]"


@dataclass(frozen=True)
class Estimate:
    players: int
    skill: Skill  # the skill both sides played at, or one per side
    games: int
    wins: Mapping[str, Rate]  # team (or "draw") -> its rate
    mean_length: float
    deaths: Mapping[str, float]  # cause -> deaths per game
    npc_deaths: Mapping[str, float] = field(
        default_factory=dict
    )  # kind -> host-run characters dead per game

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "skill": skill_json(self.skill),
            "games": self.games,
            "wins": {team: rate.to_json() for team, rate in self.wins.items()},
            "mean_length": round(self.mean_length, 3),
            "deaths_per_game": {cause: round(count, 3) for cause, count in self.deaths.items()},
            "npc_deaths_per_game": {
                kind: round(count, 3) for kind, count in self.npc_deaths.items()
            },
        }


def estimate(records: Iterable[PlayedGame], players: int, skill: SkillLike) -> Estimate:
    """A team wins a game when it is among the game's winners (a Werehamster wins beside
    the village); a game no team wins is a draw."""
    records = list(records)
    wins: Counter[str] = Counter()
    deaths: Counter[str] = Counter()
    npc_deaths: Counter[str] = Counter()
    length = 0
    for record in records:
        winners = record.result.winners if record.result else ()
        wins.update(winners or (DRAW,))
        deaths.update(record.statistics.get("deaths_by_cause", {}))
        npc_deaths.update(record.statistics.get("npc_deaths", {}))
        length += record.statistics.get("turns", 0)
    games = len(records)
    return Estimate(
        players,
        Skill.of(skill),
        games,
        {team: Rate(wins[team], games) for team in sorted(wins)},
        length / games if games else 0.0,
        {cause: deaths[cause] / games for cause in sorted(deaths)},
        {kind: npc_deaths[kind] / games for kind in sorted(npc_deaths)},
    )
