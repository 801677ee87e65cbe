"""Werewolf setups for `pbp balance` (rules: Balance): a setup in words, the setups one step
away from it, and the setup the rules propose above 20 players."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from engine.setup_variants import Options, SetupVariants, Variant
from engine.werewolf.setups import MAXIMUM_PLAYERS, SETUPS, normalise_role_name, setup_for

WOLF, VILLAGER = "werewolf", "villager"
# The village roles a step may add or take away: each acts alone (a Mason needs a partner,
# a Romantic a pair of lovers, so neither is swapped in or out on its own).
POWER_ROLES = ("seer", "witch", "bodyguard", "apothecary", "wench")
# Rules: Balance. Above 20 players, the wolves (Werewolves and the Howler) the 20-player list
# keeps: the fewest it can, with whom the village lands in the 40-60 % band at the default
# skill, or just below it at 21 and 22 players; the rest of the list stays, the other seats
# are Villagers. A proposal: the default setups stay the rulings'.
PROPOSED_WOLVES: dict[int, int] = {players: 2 for players in range(21, MAXIMUM_PLAYERS + 1)}


def a(role: str) -> str:
    """`a Seer`, `an Apothecary`."""
    return f"{'an' if role[0] in 'aeiou' else 'a'} {role.title()}"


def roles_of(players: int, options: Options) -> tuple[str, ...]:
    if options.get("roles"):
        return tuple(
            normalise_role_name(part) for part in str(options["roles"]).split(",") if part.strip()
        )
    return setup_for(players, str(options.get("setup_11", "romantic")))


def words(roles: Sequence[str]) -> str:
    counts = Counter(roles)
    return ", ".join(
        f"{role}×{count}" if count > 1 else role for role, count in sorted(counts.items())
    )


def played(players: int, options: Options) -> str:
    return words(roles_of(players, options))


def swapped(roles: Sequence[str], old: str, new: str) -> tuple[str, ...]:
    index = list(roles).index(old)
    return (*roles[:index], new, *roles[index + 1 :])


def _variant(change: str, roles: Sequence[str], options: Options) -> Variant:
    return change, {**options, "roles": ",".join(sorted(roles))}


def nearby(players: int, options: Options) -> tuple[Variant, ...]:
    """A Werewolf more or fewer (for a Villager), each lone power role for a Villager or for
    each lone power role the setup lacks, and a Villager for each such role."""
    roles = roles_of(players, options)
    found: list[Variant] = []
    if VILLAGER in roles:
        found.append(
            _variant("one Werewolf more (for a Villager)", swapped(roles, VILLAGER, WOLF), options)
        )
    if roles.count(WOLF) > 1:
        found.append(
            _variant(
                "one Werewolf fewer (a Villager instead)", swapped(roles, WOLF, VILLAGER), options
            )
        )
    present = [role for role in POWER_ROLES if role in roles]
    absent = [role for role in POWER_ROLES if role not in roles]
    for role in present:
        found.append(
            _variant(
                f"a Villager instead of the {role.title()}", swapped(roles, role, VILLAGER), options
            )
        )
        for other in absent:
            found.append(
                _variant(
                    f"{a(other)} instead of the {role.title()}",
                    swapped(roles, role, other),
                    options,
                )
            )
    if VILLAGER in roles:
        for role in absent:
            found.append(
                _variant(
                    f"{a(role)} instead of a Villager", swapped(roles, VILLAGER, role), options
                )
            )
    return tuple(found)


def proposed_roles(players: int) -> tuple[str, ...] | None:
    """Rules: Balance. The 20-player list with the proposed number of wolves, or None where
    the default is kept."""
    wolves = PROPOSED_WOLVES.get(players)
    if wolves is None:
        return None
    base = SETUPS[max(SETUPS)]
    werewolves = wolves - sum(1 for role in base if role == "howler")
    rest = tuple(role for role in base if role != WOLF)
    return (WOLF,) * werewolves + rest + (VILLAGER,) * (players - werewolves - len(rest))


def proposed(players: int, options: Options) -> Variant | None:
    roles = (
        proposed_roles(players) if not options.get("roles") and players <= MAXIMUM_PLAYERS else None
    )
    if roles is None:
        return None
    werewolves = roles.count(WOLF)
    return _variant(
        f"the rules' proposal for {players} players: {werewolves}"
        f" Werewolf{'' if werewolves == 1 else 'ves'} and the Howler",
        roles,
        options,
    )


SETUP_VARIANTS = SetupVariants(played=played, nearby=nearby, proposed=proposed)
