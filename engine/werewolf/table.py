"""The role table of one ruleset: the built-in roles plus the host's extra roles
(docs/design.md: Extensibility). Built once by `make_ruleset`; never changed afterwards."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

from engine.core import GameSetupError
from engine.werewolf.model import WOLVES, NightStep, Role, Victory
from engine.werewolf.orders import DAY_ORDER_CLASSES
from engine.werewolf.roles import BUILTIN_ROLES, FIRST_NIGHT_STEPS


class RoleTable:
    """Roles by name, their order keywords, and the night order built from `NightStep`."""

    def __init__(self, extra_roles: Sequence[Role] = ()):
        roles = tuple(BUILTIN_ROLES) + tuple(extra_roles)
        names = [role.name for role in roles]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise GameSetupError(
                f"Two roles are called {duplicates[0]!r}; give the extra role another name."
            )
        self.roles = roles
        self.by_name: Mapping[str, Role] = MappingProxyType({role.name: role for role in roles})
        classes: list[type[Any]] = list(DAY_ORDER_CLASSES)
        for role in roles:
            for kind in role.orders:
                if kind.order not in classes:
                    classes.append(kind.order)
        keywords: dict[str, type[Any]] = {}
        for cls in classes:
            if cls.keyword in keywords:
                raise GameSetupError(
                    f"Two order types use the keyword {cls.keyword}; give the extra role's order"
                    " another keyword."
                )
            keywords[cls.keyword] = cls
        self.keywords: Mapping[str, type[Any]] = MappingProxyType(keywords)
        self.first_night_steps = FIRST_NIGHT_STEPS

    def names(self) -> tuple[str, ...]:
        return tuple(self.by_name)

    def steps(self, first: NightStep, last: NightStep) -> tuple[Role, ...]:
        """The roles that act from step `first` to `last`, in the night order; roles at the
        same step keep the table's order (built-ins, then extras)."""
        acting = [
            role
            for role in self.roles
            if role.night_step is not None
            and role.resolve is not None
            and first <= role.night_step <= last
        ]
        return tuple(sorted(acting, key=lambda role: role.night_step))  # type: ignore[arg-type, return-value]  # acting roles all have a night_step

    def victories(self) -> tuple[Victory, ...]:
        seen, found = set(), []
        for role in self.roles:
            if role.victory and role.victory.faction not in seen:
                seen.add(role.victory.faction)
                found.append(role.victory)
        return tuple(found)

    def village_must_remove(self) -> frozenset[str]:
        """Factions the Villagers must wipe out to win: the wolves and any faction that says so."""
        return frozenset(
            {WOLVES} | {role.faction for role in self.roles if role.blocks_village_win}
        )

    def knowing_factions(self) -> frozenset[str]:
        return frozenset(role.faction for role in self.roles if role.knows_faction)
