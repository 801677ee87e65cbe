"""`--skill` as a host writes it (docs/balance.md: Two skills): one number from 0 to 1 for
both sides (`0.4`), one per side (`village=0.4,wolves=0.6`; a side left out plays at the
default skill). A command that sweeps a list of skills (`0,0.5,1`) reads each item with
`parse_skill` when the text holds no `=`. The village is the uninformed side (Werewolf's village, Infiltration's
Greens), the wolves the informed one (the wolves, the Reds)."""
from __future__ import annotations

from engine.players import DEFAULT_SKILL, Skill


class SkillError(ValueError):
    """A `--skill` a host wrote wrong; its text is the one sentence to show them."""

SIDES = ("village", "wolves")
EXAMPLE = "give one number from 0 to 1 (--skill 0.4) or one per side (--skill village=0.4,wolves=0.6)"


def parse_skill(text: str) -> Skill:
    """One skill: a number for both sides, or `village=V,wolves=W`; SkillError (one
    sentence, for the host) when it is neither."""
    text = text.strip()
    if "=" not in text:
        return Skill.of(_number(text, text))
    given: dict[str, float] = {}
    for part in text.split(","):
        side, _, value = part.partition("=")
        side = side.strip().lower()
        if side not in SIDES:
            raise SkillError(f"--skill {text}: {side or 'an empty name'!r} is not a side; "
                            f"name the village or the wolves, e.g. --skill village=0.4,wolves=0.6.")
        if side in given:
            raise SkillError(f"--skill {text} gives the {side}' skill twice; give it once.")
        given[side] = _number(value.strip(), text)
    return Skill(given.get("village", DEFAULT_SKILL), given.get("wolves", DEFAULT_SKILL))


def _number(value: str, text: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise SkillError(f"--skill {text} is not a skill; {EXAMPLE}.") from None
    if not 0.0 <= number <= 1.0:
        raise SkillError(f"--skill {text} is outside 0 to 1; {EXAMPLE}.")
    return number


def skill_json(skill: Skill) -> float | dict[str, float]:
    """A skill in a JSON report: the number when both sides share it, else one per side."""
    single = skill.single
    return single if single is not None else {"village": skill.village, "wolves": skill.wolves}
