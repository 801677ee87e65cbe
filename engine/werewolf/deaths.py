"""Deaths with their chains: the night's at dawn (rules: Death chains), and those outside
the night's resolution (lynch, host kill) (rules: Romantic: if one lover dies, the other
dies at once)."""

from __future__ import annotations

from engine.werewolf.characters import Character, kill
from engine.werewolf.model import Night


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


def deaths_at_dawn(night: Night, removed: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Every death of the night with its first cause, chains applied until nothing changes
    (rules: Death chains): Wench and bedfellow, lovers. `removed` are the players the host
    removed during the night: already dead and announced, but their chains wait for dawn."""
    dying: list[tuple[str, str]] = []
    if night.wolf_target and night.wolf_target not in night.protected and not night.saved:
        dying.append((night.wolf_target, "wolves"))
    dying.extend(night.dying)
    dead = {name for name, _ in dying if not night.is_out(name)}
    dying = [(name, cause) for name, cause in dying if name in dead]
    dying = first_cause_only(dying)
    dead |= set(removed)  # chain sources, not deaths of their own at dawn
    changed = True
    while changed:
        changed = False
        gone = dead | {c.name for c in night.characters if not c.alive}
        for wench, bedfellow in night.bedfellows:
            for one, other in ((wench, bedfellow), (bedfellow, wench)):
                if one in dead and other not in gone:
                    dying.append((other, "wench"))
                    dead.add(other)
                    changed = True
        if len(night.lovers) == 2:
            for one, other in (night.lovers, night.lovers[::-1]):
                if one in dead and other not in gone and other not in dead:
                    dying.append((other, "lover"))
                    dead.add(other)
                    changed = True
    return dying


def first_cause_only(dying: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A character who dies of several causes is counted once, by the first in night order."""
    seen, kept = set(), []
    for name, cause in dying:
        if name not in seen:
            seen.add(name)
            kept.append((name, cause))
    return kept
