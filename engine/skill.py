"""The scripted players' skill, one number or one per side (docs/balance.md: Two skills)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Skill:
    """Two skills (docs/balance.md: Two skills): `village`, how well the uninformed side
    reasons (Werewolf's village, Infiltration's Greens); `wolves`, how well the informed
    side plays (the wolves, the Reds). One number means both."""

    village: float
    wolves: float

    def __post_init__(self) -> None:
        for side, value in (("village", self.village), ("wolves", self.wolves)):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"the {side}' skill must be between 0 and 1, not {value:g}")

    @classmethod
    def of(cls, skill: "float | Skill") -> "Skill":
        return skill if isinstance(skill, Skill) else cls(float(skill), float(skill))

    def side(self, informed: bool) -> float:
        """The skill of the informed side (wolves, Reds) or of the other."""
        return self.wolves if informed else self.village

    @property
    def single(self) -> float | None:
        """The one number both sides share, or None when they differ."""
        return self.village if self.village == self.wolves else None

    def label(self) -> str:
        """`0.25` when both sides share it (so seeds and figures made from one number stay
        the same), else `village=0.4,wolves=0.6`."""
        if self.single is not None:
            return f"{self.single:g}"
        return f"village={self.village:g},wolves={self.wolves:g}"


# Anything a skill may be given as: one number for both sides, or two.
SkillLike = float | Skill
