"""Combat in every room, step 2 of the resolution (rules: Resolution §2).

The pure one-room core is `combat.resolve_combat` (with `combat.killers`); this module
gathers each room's combatants, adds the guards' automatic attacks, and reports what the
people there saw: the attacks players and NPCs declared, who died and who killed each of
them. A guard's automatic attacks are not listed otherwise, since whom a guard spares
would tell every witness who is a Sneaker.
"""

from __future__ import annotations

from typing import Mapping

from engine.core import Event
from engine.infiltration.steps.combat import PRIORITY, killers
from engine.infiltration.rooms import room_order
from engine.infiltration.evolve import evolve
from engine.infiltration.state import UNSEEN_BY_GUARDS, GameState


def guard_attacks(state: GameState, room: str) -> dict[str, tuple[str, ...]]:
    """Guards attack every living non-guard in the room except Sneakers and Renegades."""
    victims = tuple(sorted(c.name for c in state.in_room(room) if c.role not in UNSEEN_BY_GUARDS))
    return {guard.name: victims for guard in state.guards_in(room) if victims}


def fight(
    state: GameState, declared: Mapping[str, tuple[str, ...]]
) -> tuple[GameState, dict[str, str], dict[str, list[Event]]]:
    """Every room's combat. `declared` maps a living character to the targets they attack
    (targets no longer alive or present are dropped). Returns the new state, the dead with
    their cause (`combat`, or `guard` when only guards attacked them), and private reports."""
    rooms = _attacks_by_room(state, declared)
    deaths: dict[str, str] = {}
    reports: dict[str, list[Event]] = {}
    attack_log = list(state.attacks)
    for room in sorted(rooms, key=room_order):
        attacks = rooms[room]
        characters = state.in_room(room)
        priorities = {c.name: PRIORITY[c.role] for c in characters}
        priorities.update({g.name: PRIORITY["guard"] for g in state.guards_in(room)})
        dead = killers(priorities, attacks)
        for victim in dead:
            deaths[victim] = _cause(victim, attacks)
        pairs = [
            [attacker, target]
            for attacker in sorted(attacks)
            for target in attacks[attacker]
            if not attacker.startswith("guard ")
        ]
        attack_log += [(state.turn, attacker, target) for attacker, target in pairs]
        if not pairs and not dead:
            continue
        event = Event(
            "combat",
            {
                "turn": state.turn,
                "room": room,
                "attacks": pairs,
                "dead": sorted(dead),
                "killers": {victim: list(by) for victim, by in dead.items()},
            },
        )
        for character in characters:
            reports.setdefault(character.name, []).append(event)
    state = evolve(state, attacks=tuple(attack_log))
    for victim, cause in sorted(deaths.items()):
        state = state.killed(victim, cause)
    return state, deaths, reports


def _attacks_by_room(
    state: GameState, declared: Mapping[str, tuple[str, ...]]
) -> dict[str, dict[str, tuple[str, ...]]]:
    """Each room's attacks, attacker -> targets: the declared ones still possible (a living
    attacker, targets present, no one attacking themself), then the guards' automatic ones."""
    rooms: dict[str, dict[str, tuple[str, ...]]] = {}
    for attacker, targets in declared.items():
        character = state.characters.get(attacker)
        if character is None or not character.alive:
            continue
        here = {c.name for c in state.in_room(character.room)} | {
            g.name for g in state.guards_in(character.room)
        }
        valid = tuple(t for t in targets if t in here and t != attacker)
        if valid:
            rooms.setdefault(character.room, {})[attacker] = valid
    for guard in state.living_guards():
        automatic = guard_attacks(state, guard.room)
        if automatic:
            rooms.setdefault(guard.room, {}).update(automatic)
    return rooms


def _cause(victim: str, attacks: Mapping[str, tuple[str, ...]]) -> str:
    """`combat` when a player or NPC attacked the victim, `guard` when only guards did."""
    by_people = any(
        victim in targets
        for attacker, targets in attacks.items()
        if not attacker.startswith("guard ")
    )
    return "combat" if by_people else "guard"
