"""Scripted Infiltration players (docs/balance.md: Infiltration): one object per character,
which sees only what its player sees (engine.players.Seen), plays at a skill from 0 (moves,
votes and terminals at random) to 1, and posts what it learned (or, for a Red, lies) in the
thread. Every line is checked with the real parser against the player's own view."""

from __future__ import annotations

import random

from engine.infiltration.players import greens, reds
from engine.infiltration.players.lines import parseable
from engine.infiltration.players.notes import Notes
from engine.infiltration.players.reading import RED
from engine.infiltration.players.terminals import terminal_line
from engine.infiltration.rooms import ROOMS
from engine.players import Post, Seen, Skill, SkillLike

__all__ = ["InfiltrationPlayer"]


class InfiltrationPlayer:
    """engine.players.ScriptedPlayer for one Infiltration character."""

    def __init__(self, name: str, skill: SkillLike):
        self.notes = Notes(name, Skill.of(skill))

    def talk(self, seen: Seen, rng: random.Random) -> tuple[Post, ...]:
        notes = self.notes
        notes.look(seen)
        if seen.view["step"] != "decision" or notes.skill == 0.0 or notes.said_in == seen.phase:
            return ()
        notes.said_in = seen.phase
        said = reds.lie(notes, seen) if notes.me["team"] == RED else greens.report(notes)
        if not said or said == notes.posted:
            return ()
        notes.posted = dict(said)
        return (Post(notes.name, seen.phase, "report", said),)

    def orders(self, seen: Seen, rng: random.Random) -> str:
        notes = self.notes
        notes.look(seen)
        me, step = seen.view["me"], seen.view["step"]
        if step == "class":
            lines = (
                ["CLASS WARRIOR"]
                if me["team"] == RED
                else [f"CLASS {rng.choices(('WARRIOR', 'HACKER', 'SNEAKER'), (5, 3, 2))[0]}"]
            )
        elif me["npc"]:
            lines = npc_orders(notes, seen, rng)
        elif me["team"] == RED:
            lines = (
                reds.move(notes, seen, rng) if step == "movement" else reds.decide(notes, seen, rng)
            )
        else:
            lines = (
                greens.move(notes, seen, rng)
                if step == "movement"
                else greens.decide(notes, seen, rng)
            )
        return "\n".join(parseable(lines, seen.view))


def npc_orders(notes: Notes, seen: Seen, rng: random.Random) -> list[str]:
    """An NPC (the host's character, scripted only in demos and tests) acts at random
    within the rules."""
    if seen.view["step"] == "movement":
        return [f"MOVE {rng.choice(ROOMS)}"] if rng.random() < 0.7 else ["STAY"]
    attack = next((spec for spec in seen.grammar if spec.keyword == "ATTACK"), None)
    lines = [f"ATTACK {rng.choice(attack.choices)}"] if attack and rng.random() < 0.3 else []
    return lines + terminal_line(notes, {spec.keyword for spec in seen.grammar}, False, rng)
