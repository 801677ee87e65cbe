"""What a ruleset's card tells the balance study about it (docs/balance.md): the sizes at
which the figures play its source's setups, and, for the ruleset the scripted players are
calibrated on, the plain game of the random-lynch law and the human records (anchors) their
skill is checked against. The shell's balance code names no ruleset; it reads these."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class Anchor:
    """A human record of one setup, in which the people of the counted side won `rate` of
    the games: the scripted players' rate at `skill` must agree with the band, the record's
    95 % `interval` where its sample is small, else `rate` ± `within` (docs/balance.md:
    Calibration against human play; `pbp.balance.calibration.anchor_agrees`).

    `name` keys its seeds and the figure's row; `setup` and `size` say what was played (in
    a legend, and in a table's header), `record` what the people won; `config`: what the
    ruleset is made with for it (engine.ruleset's config: Werewolf's `extra_roles`, the
    roles of the anchor's server that pbp does not have). `games`: how many human games
    the record counts (0: not published). `pins_skill` False: the band holds at every
    skill the scripted players can have, so the anchor cannot tell a wrong skill from a
    right one; it checks the model's consistency only (docs/balance.md: Calibration
    against human play)."""

    name: str
    players: int
    options: Mapping[str, str]
    skill: float
    rate: float
    setup: str
    size: str
    record: str
    interval: tuple[float, float] | None = None
    within: float = 0.0
    config: Mapping[str, Any] = field(default_factory=dict)
    pins_skill: bool = True
    games: int = 0

    @property
    def band(self) -> tuple[float, float]:
        """Where the scripted players' rate must land."""
        return self.interval or (self.rate - self.within, self.rate + self.within)


@dataclass(frozen=True)
class Calibration:
    """`plain_game(n, m, night_first)`: the options of the law's plain game of `n` players,
    `m` of them on the killing side and the rest plain, the night first or not; `side`: the
    side whose wins the law gives (docs/balance.md: The random-lynch law)."""

    side: str
    plain_game: Callable[[int, int, bool], Mapping[str, str]]
    anchors: tuple[Anchor, ...] = ()


@dataclass(frozen=True)
class BalanceStudy:
    """`figure_sizes`: the player counts at which `scripts/balance-figures` plays the
    source's setups, `figure_games` games a point; `calibration`: set on the one ruleset the
    scripted players' skill is calibrated on."""

    figure_sizes: tuple[int, ...] = ()
    figure_games: int = 0
    calibration: Calibration | None = None
