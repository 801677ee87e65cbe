"""Infiltration setups for `pbp balance` (rules: Balance): the Red count in words, the
counts one and two away, and the count the rules propose where the default is lopsided."""

from __future__ import annotations

from engine.setup_variants import Options, SetupVariants, Variant

# Rules: Balance. The Red count the Greens meet in the 40-60 % band at the default skill,
# for the sizes where max(1, round(players / 5)) falls outside it.
PROPOSED_REDS: dict[int, int] = {32: 9, 40: 13, 48: 16}


def default_reds(players: int) -> int:
    """Reds (option): default max(1, round(players / 5))."""
    return max(1, round(players / 5))


def reds_of(players: int, options: Options) -> int:
    return int(options.get("reds") or 0) or default_reds(players)


def played(players: int, options: Options) -> str:
    reds = reds_of(players, options)
    default = "" if options.get("reds") else " (the default, players / 5)"
    return f"{reds} Red{'s' if reds != 1 else ''}{default}"


def nearby(players: int, options: Options) -> tuple[Variant, ...]:
    reds = reds_of(players, options)
    return tuple(
        (f"{count} Red{'s' if count != 1 else ''}", {**options, "reds": str(count)})
        for count in (reds - 2, reds - 1, reds + 1, reds + 2)
        if 1 <= count < players
    )


def proposed(players: int, options: Options) -> Variant | None:
    reds = PROPOSED_REDS.get(players)
    if reds is None or options.get("reds"):
        return None
    return f"the rules' proposal for {players} players: {reds} Reds", {**options, "reds": str(reds)}


SETUP_VARIANTS = SetupVariants(played=played, nearby=nearby, proposed=proposed)
