"""The balance note of `pbp new-game` and `pbp open-game` (docs/balance.md: The note when a
game starts): a modest number of simulated games of the chosen setup at the default skill,
kept per setup in the host's cache folder (`$XDG_CACHE_HOME/pbp`, else `~/.cache/pbp`: the
games are seeded, so a setup's figure is the same in every data folder), and one line when
the setup lies outside the balanced band. It never refuses a setup."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Mapping, Sequence

import engine
from engine.core import GameSetupError
from engine.players import DEFAULT_SKILL
from pbp.balance.estimate import Rate
from pbp.balance.runs import play_in_parallel
from pbp.balance.verdict import BAND, Verdict, judge
from pbp.durable import write_atomically

GAMES = 100  # ±10 points at worst: enough to tell a lopsided setup, quick to play
CACHE = "balance-notes.json"
SEED = "balance-note"


def _key(ruleset: str, players: int, options: Mapping[str, Any]) -> str:
    rules = engine.ruleset(ruleset)
    shown = json.dumps(
        [
            ruleset,
            rules.card.rules_version,
            players,
            DEFAULT_SKILL,
            GAMES,
            sorted((key, str(value)) for key, value in options.items()),
        ]
    )
    return hashlib.sha256(shown.encode()).hexdigest()[:24]


def cache_folder() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pbp"


def village_rate(ruleset: str, players: int, options: Mapping[str, Any]) -> Verdict | None:
    """The first side's rate over GAMES games of the setup, from the cache when it holds it;
    None when the setup cannot be played (the game's own checks say why)."""
    rules = engine.ruleset(ruleset)
    side_of = judge(rules.card, Rate(0, GAMES))
    if side_of is None:
        return None
    path = cache_folder() / CACHE
    try:
        cache: dict[str, int] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        cache = {}
    key = _key(ruleset, players, options)
    if key not in cache:
        try:
            records = play_in_parallel(
                rules,
                players,
                GAMES,
                f"{SEED}/{players}",
                options,
                os.cpu_count() or 1,
                None,
                DEFAULT_SKILL,
            )
        except GameSetupError:
            return None
        cache[key] = sum(
            1 for record in records if record.result and side_of.side in record.result.winners
        )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, json.dumps(cache, indent=1, sort_keys=True).encode())
        except OSError:
            pass  # a cache that cannot be kept costs only time
    return judge(rules.card, Rate(cache[key], GAMES))


def sizes_to_check(smallest: int, largest: int) -> list[int]:
    """Every size of a small range; the ends and the middle of a larger one."""
    if largest - smallest < 3:
        return list(range(smallest, largest + 1))
    return [smallest, (smallest + largest) // 2, largest]


def leans(judged: Verdict) -> bool:
    """Outside the band by its figure, and the even game (50 %) outside its interval: the
    note's test, looser than the verdict's, since its games are few."""
    low, high = judged.rate.interval
    return not BAND[0] <= judged.rate.value <= BAND[1] and not low <= 0.5 <= high


def lean_words(judged: Verdict) -> str:
    if judged.outside:
        return judged.sentence().rstrip(".")
    below = judged.rate.value < BAND[0]
    favoured = judged.other_words if below else judged.side_words
    return (
        f"the setup leans to {favoured}: {judged.side_words} won {judged.figure()} of the games, "
        f"{'below' if below else 'above'} {100 * BAND[0]:.0f}–{100 * BAND[1]:.0f} % by its figure"
    )


def balance_note(ruleset: str, sizes: Sequence[int], options: Mapping[str, Any]) -> str | None:
    """One line naming the sizes whose setup lies outside the band, or None."""
    rules = engine.ruleset(ruleset)
    lopsided = []
    for size in sizes:
        judged = village_rate(ruleset, size, options)
        if judged is not None and leans(judged):
            proposal = rules.card.setup_variants.proposed(size, options)
            offer = f"; {proposal[0]}" if proposal else ""
            lopsided.append(f"{size} players: {lean_words(judged)}{offer}")
    if not lopsided:
        return None
    band = f"{100 * BAND[0]:.0f}–{100 * BAND[1]:.0f} %"
    return (
        f"Balance note ({GAMES} simulated games a setup at the default skill {DEFAULT_SKILL:g}; the"
        f" band is {band}): "
        + "; ".join(lopsided)
        + f". `pbp balance {ruleset} --players {sizes[-1]} --suggest` "
        "looks for a fairer setup; the game goes ahead as chosen."
    )
