"""Combat in one room (rules: Resolution of a decision phase, §2 Combat, room by room).

`resolve_combat` is the stable public core: given every combatant's priority and who
attacks whom, it returns who dies. It knows nothing of classes, teams or guards; the
caller maps classes to priorities with `PRIORITY` and adds the guards' automatic attacks
before calling it.
"""

from __future__ import annotations

from typing import Collection, Mapping

# Rules: "Priorities: Renegade 4, Warrior 3, Sneaker / Hacker / Guard 2, Engineer 1."
PRIORITY: Mapping[str, int] = {
    "renegade": 4,
    "warrior": 3,
    "sneaker": 2,
    "hacker": 2,
    "guard": 2,
    "engineer": 1,
}


def resolve_combat(
    priorities: Mapping[str, int], attacks: Mapping[str, Collection[str]]
) -> set[str]:
    """The names who die in one room's combat (rules: Combat §2).

    Tiers run from the highest priority down. In the tier of priority p, every combatant
    of priority p still alive attacks, simultaneously, those of its targets still alive.
    A target dies in that tier if (a) some attacker X attacks it and it is not the case
    that the target has priority p and attacks X back (only an equal can parry), or
    (b) two attackers X and Y both attack it and X and Y do not attack each other
    mutually. Those killed in a tier still act in that tier, never in a lower one.
    """
    return set(killers(priorities, attacks))


def killers(
    priorities: Mapping[str, int], attacks: Mapping[str, Collection[str]]
) -> dict[str, tuple[str, ...]]:
    """Who dies (as `resolve_combat` decides), each with who killed them: every attacker
    whose attack on them counted in the tier in which they died, sorted by name. An attack
    counts when it was not parried (a) or when its attacker is one of a pair of attackers
    who do not attack each other mutually (b)."""
    targets_of = _validated(priorities, attacks)
    dead: dict[str, tuple[str, ...]] = {}
    for tier in sorted(set(priorities.values()), reverse=True):
        attackers = [name for name, p in priorities.items() if p == tier and name not in dead]
        dead.update(_deaths_in_tier(tier, attackers, targets_of, priorities, set(dead)))
    return dict(sorted(dead.items()))


def _deaths_in_tier(
    tier: int,
    attackers: list[str],
    targets_of: Mapping[str, frozenset[str]],
    priorities: Mapping[str, int],
    dead_before: set[str],
) -> dict[str, tuple[str, ...]]:
    """Who dies in one tier, with the attackers whose attacks counted; `dead_before` are
    those killed in higher tiers."""

    def attacks(x: str, y: str) -> bool:
        return y in targets_of.get(x, frozenset())

    attackers_of: dict[str, list[str]] = {}
    for attacker in attackers:
        for target in targets_of.get(attacker, frozenset()):
            if target not in dead_before:
                attackers_of.setdefault(target, []).append(attacker)

    killed: dict[str, tuple[str, ...]] = {}
    for target, its_attackers in attackers_of.items():
        counted: set[str] = set()
        # (a) only a target of the same priority can parry, by attacking its attacker back.
        counted.update(
            x for x in its_attackers if not (priorities[target] == tier and attacks(target, x))
        )
        # (b) two attackers who are not mutual attackers of each other overwhelm any parry.
        for i, x in enumerate(its_attackers):
            for y in its_attackers[i + 1 :]:
                if not (attacks(x, y) and attacks(y, x)):
                    counted.update((x, y))
        if counted:
            killed[target] = tuple(sorted(counted))
    return killed


def _validated(
    priorities: Mapping[str, int], attacks: Mapping[str, Collection[str]]
) -> dict[str, frozenset[str]]:
    """Each attacker's targets as a frozenset, after checking the input is one real room.

    Raises ValueError naming the first problem found.
    """
    for name, priority in priorities.items():
        # bool is an int subclass; True as a priority is a caller's mistake, not rank 1.
        if not isinstance(priority, int) or isinstance(priority, bool):
            raise ValueError(f"priority of {name!r} must be an integer, not {priority!r}")
    targets_of: dict[str, frozenset[str]] = {}
    for attacker, targets in attacks.items():
        if attacker not in priorities:
            raise ValueError(f"attacker {attacker!r} is not a combatant in this room")
        if isinstance(targets, str):
            raise ValueError(
                f"targets of {attacker!r} must be a collection of names, not the string {targets!r}"
            )
        for target in targets:
            if target not in priorities:
                raise ValueError(
                    f"{attacker!r} attacks {target!r}, who is not a combatant in this room"
                )
            if target == attacker:
                raise ValueError(f"{attacker!r} cannot attack themself")
        targets_of[attacker] = frozenset(targets)
    return targets_of
