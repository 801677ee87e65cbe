"""The scripted players' contract (docs/balance.md: What a scripted player sees).

A scripted player is an object that plays one character for one game. It is built from a
name and a skill and then sees, phase after phase, exactly what its player would: the
ruleset's view for that player (`Ruleset.view(state, name)`), its order form, the public
events and its own private events since it last looked (its mail), and the game's public
thread, where scripted players post their claims. It never holds the game state, the
game's seed or another player's mail, so it cannot cheat.

Chance comes in three kinds, all drawn by the simulation from the game's seed:
- `rng`: the player's own generator for this phase (its private whims);
- `coin`: one public random number per phase that every player sees alike, as a thread
  where everyone announces a number and the sum decides (the village's public draw);
- `team_coins`: one random number per team channel the player belongs to now (the pack
  agreeing in its channel), keyed by the channel's name (`Ruleset.status(...).channels`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol

from engine.core import Event, OrderSpec
from engine.skill import Skill as Skill, SkillLike as SkillLike

# The skill `pbp balance` and `pbp simulate` use unless told otherwise: the model's best
# play, the skill at which the human anchor of docs/balance.md (the standard 17-player
# village, scored as its server scores it) comes closest to its record (Calibration).
DEFAULT_SKILL = 1.0
# The skill of scripted players who stand in for people outside a balance study (the
# demo's players, `Ruleset.scripted_orders`, a simulation that names none): moderate play
# that shows mistakes beside sense. It claims nothing about any table.
STAND_IN_SKILL = 0.25
COIN_RANGE = 1 << 64


@dataclass(frozen=True)
class Post:
    """A public message in the game's thread. `kind` is `claim` (a role claim: `role`,
    and `results` mapping each player to what the claimant says they are) or `report`
    (Infiltration: what a terminal or an arrival showed: `facts`)."""

    author: str
    phase: str
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Seen:
    """Everything a scripted player may look at when it decides."""

    name: str
    phase: str
    view: Mapping[str, Any]
    grammar: tuple[OrderSpec, ...]
    news: tuple[Event, ...]
    mail: tuple[Event, ...]
    thread: tuple[Post, ...]
    coin: int
    team_coins: Mapping[str, int] = field(default_factory=dict)

    def coin_draw(self, coin: int | None = None) -> float:
        """The public coin (or a team's) as a number in [0, 1)."""
        return (self.coin if coin is None else coin) / COIN_RANGE


class ScriptedPlayer(Protocol):
    """One character's scripted player. `talk` may add posts to the thread (called twice
    per phase before any orders, so a claim can be answered); `orders` returns the order
    lines to send (possibly none). Both receive the same `Seen` of a phase, with the
    thread as it stands; every line `orders` returns parses."""

    def talk(self, seen: Seen, rng: random.Random) -> tuple[Post, ...]: ...

    def orders(self, seen: Seen, rng: random.Random) -> str: ...
