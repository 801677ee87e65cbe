"""A verdict on one setup (docs/balance.md: Reading a verdict): where the first side's win
rate (the Village, the Greens) and its 95 % interval lie against the balanced band of
40-60 %. Only an interval wholly inside the band is balanced, only one wholly outside is
lopsided; an interval across an edge is too close to call at that many games."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import RulesetCard
from pbp.balance.estimate import Estimate, Rate

BAND = (0.4, 0.6)  # the band a balanced setup's first side's rate lies in
BALANCED, FAVOURED, DISFAVOURED, UNCLEAR = "balanced", "favoured", "disfavoured", "unclear"


@dataclass(frozen=True)
class Verdict:
    side: str  # the team whose rate is judged (the card's first side)
    side_words: str  # "the Village"
    other_words: str  # "the Wolves"
    rate: Rate

    @property
    def kind(self) -> str:
        low, high = self.rate.interval
        if BAND[0] <= low and high <= BAND[1]:
            return BALANCED
        if high < BAND[0]:
            return DISFAVOURED
        if low > BAND[1]:
            return FAVOURED
        return UNCLEAR

    @property
    def outside(self) -> bool:
        """Clearly lopsided: the whole interval lies outside the band."""
        return self.kind in (FAVOURED, DISFAVOURED)

    @property
    def distance(self) -> float:
        """How far the rate lies from an even game (the order `--suggest` ranks by)."""
        return abs(self.rate.value - 0.5)

    def figure(self) -> str:
        low, high = self.rate.interval
        return f"{100 * self.rate.value:.0f} % [{100 * low:.0f}, {100 * high:.0f}]"

    def sentence(self) -> str:
        band = f"{100 * BAND[0]:.0f}–{100 * BAND[1]:.0f} %"
        wins = f"{self.side_words} won {self.figure()} of the games"
        kind = self.kind
        if kind == BALANCED:
            return f"balanced: {wins}, inside {band}."
        if kind == DISFAVOURED:
            return f"the setup favours {self.other_words}: {wins}, below {band}."
        if kind == FAVOURED:
            return f"the setup favours {self.side_words}: {wins}, above {band}."
        low, high = self.rate.interval
        edges = " and ".join(f"{100 * edge:.0f} %" for edge in BAND if low < edge < high)
        return (
            f"too close to call: {wins}, an interval across the band's edge at {edges}; "
            "more games (a smaller --precision) may decide."
        )


def verdict(card: RulesetCard, found: Estimate) -> Verdict | None:
    """The verdict on the card's first side (`side_names`), against its second; None for a
    ruleset that names fewer than two sides."""
    judged = judge(card, Rate(0, found.games))
    return judged and Verdict(
        judged.side,
        judged.side_words,
        judged.other_words,
        found.wins.get(judged.side, Rate(0, found.games)),
    )


def judge(card: RulesetCard, rate: Rate) -> Verdict | None:
    """`rate`, the card's first side's, judged; None for a card with fewer than two sides."""
    if len(card.side_names) < 2:
        return None
    (side, side_words), (_, other_words) = card.side_names[0], card.side_names[1]
    return Verdict(side, side_words, other_words, rate)
