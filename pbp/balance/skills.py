"""`--skill` as a host writes it (docs/balance.md: Two skills): one number from 0 to 1 for
both sides (`0.4`), one per side (`village=0.4,wolves=0.6`; a side left out plays at the
default skill). A command that sweeps a list of skills (`0,0.5,1`) reads each item with
`parse_skill` when the text holds no `=`. The village is the uninformed side (Werewolf's
village, Infiltration's Greens), the wolves the informed one (the wolves, the Reds)."""

from __future__ import annotations

from engine.players import DEFAULT_SKILL, Skill


class SkillError(ValueError):
    """A `--skill` a host wrote wrong; its text is the one sentence to show them."""


SIDES = ("village", "wolves")
EXAMPLE = (
    "give one number from 0 to 1 (--skill 0.4) or one per side (--skill village=0.4,wolves=0.6)"
)


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
            raise SkillError(
                f"--skill {text}: {side or 'an empty name'!r} is not a side; "
                "name the village or the wolves, e.g. --skill village=0.4,wolves=0.6."
            )
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


def parse_skills(text: str) -> tuple[list[Skill], list[str]]:
    """Several skills, for a command that plays each (`pbp balance`): numbers
    (`0,0.5,1`), one skill per side (`village=0.4,wolves=0.6`), or several of either
    joined by `;` (`village=0,wolves=1;village=1,wolves=1`). Returns the skills read and
    one sentence for each item that is not a skill."""
    items = text.split(";") if ";" in text else [text] if "=" in text else text.split(",")
    skills, problems = [], []
    for item in items:
        try:
            skills.append(parse_skill(item))
        except SkillError as error:
            problems.append(str(error))
    return skills, problems


def skill_axis(skills: list[Skill]) -> tuple[str, list[float]]:
    """The axis a plot against the skill draws `skills` on: the one number when both sides
    share it in each, else the side that changes while the other stays; SkillError when
    both sides change, since no one axis shows that."""
    if all(skill.single is not None for skill in skills):
        return "skill of the scripted players (both sides)", [skill.village for skill in skills]
    if len({skill.village for skill in skills}) == 1:
        return f"the wolves' skill (the village's at {skills[0].village:g})", [
            skill.wolves for skill in skills
        ]
    if len({skill.wolves for skill in skills}) == 1:
        return f"the village's skill (the wolves' at {skills[0].wolves:g})", [
            skill.village for skill in skills
        ]
    raise SkillError(
        "These skills change both sides from one to the next, so no one axis shows them; "
        "keep one side's skill the same in each (--skill 'village=0,wolves=1;village=1,wolves=1')."
    )
