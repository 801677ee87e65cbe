"""Calibration (docs/balance.md: Calibration): the scripted players against the exact
random-lynch law at skill 0, and against the human anchors at the skills they stand for.

The calibrated ruleset is the one whose card declares a calibration (engine.core.
Calibration); it says what a cell of the law is: a plain game (n players, m of them on the
killing side, the rest plain), day first or night first, and which side's wins the law
gives."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable

import engine
from engine.core import Anchor, Calibration, Ruleset
from engine.players import SkillLike
from pbp.balance.intervals import wilson
from pbp.balance.law import village_wins
from pbp.balance.runs import play_in_parallel


@functools.lru_cache(maxsize=1)  # the registry's rulesets never change within a process
def calibrated() -> tuple[Ruleset, Calibration]:
    """The ruleset the scripted players are calibrated on, with its calibration."""
    for name in engine.rulesets():
        rules = engine.ruleset(name)
        if rules.card.balance_study.calibration is not None:
            return rules, rules.card.balance_study.calibration
    raise LookupError("no ruleset's card declares a calibration")


def skill_note(ruleset: str) -> str:
    """One sentence for a command's output on what human data the skill rests on for
    `ruleset`: the anchors that pin it, or that none does."""
    calibration = engine.ruleset(ruleset).card.balance_study.calibration
    if calibration is None:
        return (
            f"No human record pins the skill for {ruleset}: these are the scripted players' "
            "figures, not people's (docs/balance.md)."
        )
    pinned = [anchor.record for anchor in calibration.anchors if anchor.pins_skill]
    return (
        f"The skill is checked against {'; '.join(pinned)}; at its best the model's village "
        "wins less (docs/balance.md: Calibration against human play)."
    )


def anchor_rules(anchor: Anchor) -> Ruleset:
    """The ruleset an anchor is played with: the calibrated one, made with the anchor's
    own config (its server's roles) when it has one."""
    rules, _ = calibrated()
    if not anchor.config:
        return rules
    name = next(
        name for name in engine.rulesets() if engine.ruleset(name).card.balance_study.calibration
    )
    return engine.ruleset(name, **anchor.config)


def anchor_verdict(anchor: Anchor, wins: int, games: int) -> str:
    """One line on an anchor played `games` times with `wins` village wins: the rate with
    its interval, the band it must land in, and whether it did; an anchor that cannot pin
    the skill says that it only checks consistency."""
    low, high = wilson(wins, games)
    band_low, band_high = anchor.band
    kind = "" if anchor.pins_skill else " (a consistency check only: the band holds at every skill)"
    verdict = "inside" if anchor_agrees(anchor, wins, games) else "OUTSIDE"
    human = (
        f"{anchor.games} human games"
        if anchor.games
        else "a number of human games its source does not state"
    )
    return (
        f"anchor {anchor.name} ({anchor.setup}) at skill {anchor.skill:g}: {100 * wins / games:.1f}"
        f" % [{100 * low:.1f}, {100 * high:.1f}] in {games} games, {verdict} the band"
        f" {100 * band_low:.1f}-{100 * band_high:.1f} % ({anchor.record}, {human}){kind}"
    )


def anchor_agrees(anchor: Anchor, wins: int, games: int) -> bool:
    """Whether the scripted players agree with the anchor: the 95 % interval of their rate
    meets the anchor's band (so a check of a few hundred games does not fail a right skill
    by chance, and still fails one whose whole interval lies outside)."""
    low, high = wilson(wins, games)
    band_low, band_high = anchor.band
    return high >= band_low and low <= band_high


def play_anchor(
    anchor: Anchor, games: int, skill: SkillLike | None = None, seed: str = "anchor", jobs: int = 1
) -> int:
    """The village's wins in `games` games of the anchor's setup, at its skill or `skill`."""
    records = play_in_parallel(
        anchor_rules(anchor),
        anchor.players,
        games,
        f"{seed}/{anchor.name}",
        anchor.options,
        jobs,
        None,
        anchor.skill if skill is None else skill,
    )
    return village_count(records)


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
    """How many of `records` the law's side (the village) won."""
    side = calibrated()[1].side
    return sum(1 for record in records if record.result and side in record.result.winners)


def law_cell(
    players: int,
    wolves: int,
    night_first: bool,
    games: int,
    seed: str = "law",
    jobs: int = 1,
    on_game: Callable[[int], None] | None = None,
) -> Cell:
    """One cell of the law, played at skill 0."""
    rules, calibration = calibrated()
    records = play_in_parallel(
        rules,
        players,
        games,
        f"{seed}/{players}/{wolves}/{int(night_first)}",
        calibration.plain_game(players, wolves, night_first),
        jobs,
        on_game,
        0.0,
    )
    return Cell(players, wolves, night_first, games, village_count(records))
