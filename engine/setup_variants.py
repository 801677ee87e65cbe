"""What a ruleset tells `pbp balance` about its setups (docs/balance.md: A fairer setup):
the words for the setup a size and options make, the nearby setups worth trying when it is
lopsided, and the setup the project proposes for a size where its default is lopsided.

A setup here is a size with the host's options (text, as `--option` gives them); the shell
names no role and no team, it reads these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

Options = Mapping[str, str]
Variant = tuple[str, dict[str, str]]  # (what changed, in words; the options that make it)


def no_words(players: int, options: Options) -> str:
    return ""


def no_variants(players: int, options: Options) -> tuple[Variant, ...]:
    return ()


def no_proposal(players: int, options: Options) -> Variant | None:
    return None


@dataclass(frozen=True)
class SetupVariants:
    """`played(n, options)`: what the game is made of (`werewolf×2, seer, …`, `3 Reds`);
    `nearby(n, options)`: the setups one step away (a wolf more or fewer, a role swapped,
    the Red count moved), each with its options; `proposed(n, options)`: the setup the
    project's rules propose for that size when the default is lopsided, or None."""

    played: Callable[[int, Options], str] = no_words
    nearby: Callable[[int, Options], tuple[Variant, ...]] = no_variants
    proposed: Callable[[int, Options], Variant | None] = no_proposal
