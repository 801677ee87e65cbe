"""The values a Werewolf game is made of: factions, the night order, roles and the night in
progress (rules: Factions and roles; Night). The characters are engine.werewolf.characters,
the game between phases engine.werewolf.game_state.

Everything here is a frozen value; a change is a new value made with `replace`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any, Callable, Mapping

from engine.core import Event, phase_rng
from engine.errors import Wording
from engine.werewolf.characters import Character, faction_of, find, kill, update
from engine.werewolf.tally import most_named

# --------------------------------------------------------------------------- factions
VILLAGE = "village"
WOLVES = "wolves"
WEREHAMSTER = "werehamster"
WEREGERBIL = "weregerbil"


class NightStep(IntEnum):
    """The night order (rules: Night), the one table every role's step is placed in.

    Roles at the same step resolve in the role table's order (built-ins first, then the
    host's extra roles in the order given). Steps from WITCH on resolve in `Nn-witch`.
    """

    SUCCUBUS = 1
    NINJA = 2
    APOTHECARY = 3
    RABBLE_ROUSER = 4
    WENCH = 5
    BODYGUARD = 6
    WEREWOLVES = 7
    HOWLER = 8
    CREATURES = 9  # Werehamster / Weregerbil, and extra roles that ask to act here
    WITCH = 10
    SEER = 11


class Target:
    """Whom an order may name, judged on what the sender knows (rules: Order grammar)."""

    NONE = "none"  # no argument (ROUSE, SAVE)
    LIVING = "living"  # any living player, the sender included
    OTHER = "other"  # any living player but the sender


@dataclass(frozen=True)
class OrderKind:
    """One order a role may give: its typed order class, when, and whom it may name.

    `once` names the role-state flag that marks it used (once per game); `self_option`
    names an option whose value "allowed" lets the sender name themself; `check(me,
    target, known)` returns a one-sentence refusal for a role-specific rule, or None
    (`known` holds only what the sender knows: `teams`, and for the Witch in `Nn-witch`
    `wolves_target`; `target` is None when the form asks whether the order is open).
    `team` names the team that gives it together, and `lone_note` the form's note for a
    sender who knows no living member of it besides themself (a lone wolf is not told of
    a pack).
    """

    order: type[Any]
    phase_kind: str = "night"  # night0 | night | witch
    target: str = Target.OTHER
    once: str | None = None
    note: str = ""
    self_option: str | None = None
    check: Callable[["Character", str | None, Mapping[str, Any]], str | Wording | None] | None = (
        None
    )
    team: str = ""
    lone_note: str = ""

    @property
    def keyword(self) -> str:
        keyword: str = self.order.keyword
        return keyword


@dataclass(frozen=True)
class Victory:
    """A win condition an extra faction brings (rules: Victory; checked after the
    Weregerbils and before the Villagers). `holds(living)` gets the count of living
    characters per faction."""

    faction: str
    path: str
    holds: Callable[[Mapping[str, int]], bool]


@dataclass(frozen=True)
class Role:
    """A role, declared as a value by its module (style.md: a role is a module).

    `resolve(night)` carries out the role's whole night step (all its holders at once)
    and returns the new night. `knows_faction`: members of this role's faction learn each
    other (wolves, Weregerbils); `knows_role`: holders of this role learn each other
    (Masons). `contagious`: a Wench who visits a holder catches its faction (rules:
    Wench). `blocks_village_win`: the Villagers win only once this faction is gone too.
    `takes_roles`: its holder may take another's role unseen (the Succubus), so a role's
    flip does not tell the public that nobody holds that role any more.
    """

    name: str
    faction: str
    summary: str
    night_step: NightStep | None = None
    orders: tuple[OrderKind, ...] = ()
    initial_state: tuple[tuple[str, Any], ...] = ()
    resolve: Callable[["Night"], "Night"] | None = None
    knows_faction: bool = False
    knows_role: bool = False
    contagious: bool = False
    victory: Victory | None = None
    blocks_village_win: bool = False
    takes_roles: bool = False


def inherited_state(
    card: Role, card_state: tuple[tuple[str, Any], ...]
) -> tuple[tuple[str, Any], ...]:
    """What a Succubus takes with a role (rules: Succubus): its spent once-per-game powers,
    never its holder's memory of past targets (everything else starts fresh)."""
    spent = {kind.once for kind in card.orders if kind.once}
    values = dict(card.initial_state)
    values.update((key, value) for key, value in card_state if key in spent)
    return tuple(sorted(values.items()))


# --------------------------------------------------------------------------- the night
@dataclass(frozen=True)
class Night:
    """A night being resolved (rules: Night). `characters` is the working copy: the
    Succubus's swap shows in it at once; everything else waits for dawn (`dying`,
    `conversions`). `dead_now` holds the Ninja's immediate kills and their chains;
    `changed` holds the two characters whose roles swapped tonight (neither acts again
    tonight)."""

    number: int
    seed: str
    options: tuple[tuple[str, Any], ...]
    roles: Mapping[str, Role] = field(compare=False, repr=False)
    characters: tuple[Character, ...]
    orders: tuple[tuple[str, Any], ...]
    lovers: tuple[str, ...] = ()
    last_lynch: tuple[tuple[str, str], ...] | None = None
    changed: tuple[str, ...] = ()
    dead_now: tuple[tuple[str, str], ...] = ()
    dying: tuple[tuple[str, str], ...] = ()
    protected: tuple[str, ...] = ()
    bedfellows: tuple[tuple[str, str], ...] = ()
    wolf_target: str | None = None
    saved: bool = False
    conversions: tuple[tuple[str, str, str], ...] = ()
    silenced: str | None = None
    rabble: bool = False
    reports: tuple[tuple[str, Event], ...] = ()
    actions: tuple[str, ...] = ()
    stamp: int = 0

    @property
    def phase_id(self) -> str:
        return f"N{self.number}"

    def option(self, name: str) -> Any:
        return dict(self.options)[name]

    def rng(self, purpose: str) -> random.Random:
        """Rules: all chance comes from the game's seed and the phase id."""
        return phase_rng(self.seed, self.phase_id, purpose)

    def character(self, name: str) -> Character:
        return find(self.characters, name)

    def faction(self, name: str) -> str:
        return faction_of(self.character(name), self.roles)

    def is_out(self, name: str) -> bool:
        """Dead before this night or killed at once tonight (Ninja): takes no part."""
        return not self.character(name).alive

    def actors(self, role: str) -> tuple[Character, ...]:
        """Who acts for `role` tonight: living holders whose role did not change tonight
        (rules: the Succubus acts in her new role from the next night; the seduced
        target's order is void)."""
        return tuple(
            c for c in self.characters if c.role == role and c.alive and c.name not in self.changed
        )

    def order(self, name: str, order_type: type[Any]) -> Any:
        for sender, order in self.orders:
            if sender == name and isinstance(order, order_type):
                return order
        return None

    def target_of(self, name: str, order_type: type[Any]) -> str | None:
        """The living target of `name`'s order of this type; an order aimed at someone
        already out tonight does nothing (rules: Night)."""
        order = self.order(name, order_type)
        if order is None or self.is_out(order.target):
            return None
        target: str | None = order.target
        return target

    def shared_target(self, role: str, order_type: type[Any], purpose: str) -> str | None:
        """One choice shared by every actor of `role` (the Weregerbils' bite, an extra
        role's group action): the most-named living target, a tie settled by the phase's
        seeded draw for `purpose`; None when nobody named anyone."""
        top = most_named(self.target_of(actor.name, order_type) for actor in self.actors(role))
        if len(top) > 1:
            return self.rng(purpose).choice(top)
        return top[0] if top else None

    def report(self, name: str, kind: str, **data: Any) -> "Night":
        return replace(self, reports=self.reports + ((name, Event(kind, data)),))

    def used(self, keyword: str) -> "Night":
        return replace(self, actions=self.actions + (keyword.lower(),))

    def with_character(self, name: str, **changes: Any) -> "Night":
        return replace(self, characters=update(self.characters, name, **changes))

    def will_die(self, name: str, cause: str) -> "Night":
        """`name` dies at dawn (rules: all effects take place at dawn)."""
        if self.is_out(name) or any(n == name for n, _ in self.dying):
            return self
        return replace(self, dying=self.dying + ((name, cause),))

    def kill_now(self, name: str, cause: str) -> "Night":
        """An immediate death (the Ninja) and its immediate chain (lovers)."""
        night = self
        pending = [(name, cause)]
        while pending:
            victim, why = pending.pop(0)
            if night.is_out(victim):
                continue
            night = replace(
                night,
                characters=kill(night.characters, victim, why, night.phase_id),
                dead_now=night.dead_now + ((victim, why),),
            )
            if victim in night.lovers:
                pending.extend((other, "lover") for other in night.lovers if other != victim)
        return night

    def convert(self, name: str, what: str, value: str, by: str | None = None) -> "Night":
        """A role or creature change that takes effect at dawn. A role change claimed
        earlier tonight wins (rules: bitten and drained): the later one does nothing, and
        the actors of role `by` are told their target was beyond their reach."""
        if what == "role" and any(n == name and w == "role" for n, w, _ in self.conversions):
            night = self
            for actor in self.actors(by) if by else ():
                night = night.report(actor.name, "beyond_reach", night=self.number, target=name)
            return night
        return replace(self, conversions=self.conversions + ((name, what, value),))
