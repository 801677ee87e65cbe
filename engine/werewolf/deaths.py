"""Deaths outside the night's resolution (lynch, host kill) with their chains (rules:
Romantic: if one lover dies, the other dies at once)."""
from __future__ import annotations

from engine.werewolf.model import Character, kill


def kill_with_chains(characters: tuple[Character, ...], name: str, cause: str, phase_id: str,
                     lovers: tuple[str, ...], bedfellows: tuple[tuple[str, str], ...] = ()):
    """The characters after `name` dies, and every death in order as (name, cause)."""
    deaths = []
    pending = [(name, cause)]
    while pending:
        victim, why = pending.pop(0)
        if not next(c for c in characters if c.name == victim).alive:
            continue
        characters = kill(characters, victim, why, phase_id)
        deaths.append((victim, why))
        if victim in lovers:
            pending.extend((other, "lover") for other in lovers if other != victim)
        for wench, bedfellow in bedfellows:
            if victim in (wench, bedfellow):
                pending.append((bedfellow if victim == wench else wench, "wench"))
    return characters, deaths
