"""The values that cross the engine contract (docs/design.md: Engine contract): who takes
part, the lines of an order form, a phase, an event, a game's result, what resolving a
phase returns, and what a character is now."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class PlayerSpec:
    """Someone who takes part. `npc` characters are run by the host (Infiltration)."""

    name: str
    npc: bool = False
    npc_class: str | None = None
    npc_team: str | None = None


@dataclass(frozen=True)
class OrderSpec:
    """One order a player may give in a phase, for order forms and HELP.

    `syntax` is the grammar line (`MOVE <room>`); `choices` lists concrete values the
    player may pick from where the engine can list them without leaking anything
    (e.g. living players); `note` is a short plain-English hint; `default` says in words
    what the rules do for a player who gives no such order ("your class is Warrior"),
    for a receipt that leaves the player without one.
    """

    keyword: str
    syntax: str
    choices: tuple[str, ...] = ()
    note: str = ""
    default: str = ""


@dataclass(frozen=True)
class Phase:
    """The phase a game is in and who acts in it.

    `kind` names the schedule slot (`class`, `movement`, `decision`, `night`, …) so the
    shell can look up a deadline length. `grammar[player]` lists the orders that player may
    give. `secret_actors` is true when the set of actors must not be revealed by timing
    (no early resolution, e.g. Werewolf nights).
    """

    id: str
    kind: str
    actors: tuple[str, ...]
    grammar: Mapping[str, tuple[OrderSpec, ...]] = field(default_factory=dict)
    secret_actors: bool = False

    @property
    def awaited(self) -> tuple[str, ...]:
        """The actors who really have something to order: an actor whose grammar is empty
        has none (Werewolf nights list every living player as an actor so that timing
        reveals nothing); a phase that gives no grammar at all awaits every actor."""
        return tuple(name for name in self.actors if name not in self.grammar or self.grammar[name])


@dataclass(frozen=True)
class Event:
    """Something that happened. `kind` selects the template that words it; `data` is JSON."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": dict(self.data)}


@dataclass(frozen=True)
class Result:
    """How a game ended: `winners` are team / faction names, `path` the victory path
    (e.g. `ghost-destroyed`, `no-reds-left`, `draw-turn-limit`), `players` who won."""

    winners: tuple[str, ...]
    path: str
    players: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "path": self.path, "players": list(self.players)}


@dataclass(frozen=True)
class Resolution:
    """What resolving one phase produced: the new state and who learns what."""

    state: Any
    public: tuple[Event, ...] = ()
    private: Mapping[str, tuple[Event, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayerStatus:
    """What a character is now, as far as the player themself may know it.

    `label` is their team or role in the ruleset's words (`red`, `seer`); `teammates`
    the groups the rules let them know (group label → names), in the order to tell them;
    `channels` the team channels they belong to now (docs/rules: Infiltration `reds`;
    Werewolf `pack`, `masons`, `lovers`, `gerbils`); `silenced` whether they may not
    speak now. `team` is the side they play for (Infiltration's team, Werewolf's
    faction), `role` their role or class ("" while not chosen), and `revealed` the words
    the role list shows for them once roles are public (`("warrior", "red")`,
    `("wench-weregerbil",)`)."""

    alive: bool
    label: str = ""
    silenced: bool = False
    teammates: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    channels: tuple[str, ...] = ()
    team: str = ""
    role: str = ""
    revealed: tuple[str, ...] = ()
