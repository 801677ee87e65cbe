"""Deaths outside the night's resolution (lynch, host kill) with their chains (rules:
Romantic: if one lover dies, the other dies at once)."""

from __future__ import annotations

from engine.werewolf.characters import Character, kill


def kill_with_chains(
    characters: tuple[Character, ...],
    name: str,
    cause: str,
    phase_id: str,
    lovers: tuple[str, ...],
    already_dead: bool = False,
) -> tuple[tuple[Character, ...], list[tuple[str, str]]]:
    """The characters after `name` dies, and every death in order as (name, cause).
    `already_dead`: `name` died already (one of a double lynch); only the chain follows."""
    deaths: list[tuple[str, str]] = []
    pending = [(name, cause)]
    first = already_dead
    while pending:
        victim, why = pending.pop(0)
        if first:
            first = False
        elif not next(c for c in characters if c.name == victim).alive:
            continue
        else:
            characters = kill(characters, victim, why, phase_id)
            deaths.append((victim, why))
        if victim in lovers:
            pending.extend((other, "lover") for other in lovers if other != victim)
    return characters, deaths
