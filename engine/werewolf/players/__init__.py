"""Scripted Werewolf players (docs/balance.md): one object per character, which sees only
what its player sees (engine.players.Seen) and plays at a skill from 0 (the random lynch
of the theory, powers at random) to 1 (every rule of thumb the model knows, always)."""

from __future__ import annotations

import random

from engine.players import Post, Seen, Skill, SkillLike
from engine.werewolf.players.day import nominate, vote
from engine.werewolf.players.mind import Mind
from engine.werewolf.players.night import night_order, random_order
from engine.werewolf.players.talk import talk

__all__ = ["WerewolfPlayer"]


class WerewolfPlayer:
    """engine.players.ScriptedPlayer for one Werewolf character."""

    def __init__(self, name: str, skill: SkillLike):
        self.mind = Mind(name, Skill.of(skill))

    def talk(self, seen: Seen, rng: random.Random) -> tuple[Post, ...]:
        self.mind.look(seen)
        return talk(self.mind, seen, rng)

    def orders(self, seen: Seen, rng: random.Random) -> str:
        self.mind.look(seen)
        lines = []
        for spec in seen.grammar:
            if spec.keyword == "NOMINATE":
                line: str | None = nominate(self.mind, seen, spec, rng)
            elif spec.keyword == "VOTE":
                line = vote(self.mind, seen, spec, rng)
            elif spec.keyword in ("LOVE",):
                line = random_order(spec, sorted(spec.choices), rng)
            else:
                line = night_order(self.mind, seen, spec, rng)
            if line:
                lines.append(line)
        return "\n".join(lines)
