"""Twin games for the secrecy proofs (docs/design.md: One gate).

A twin pair is two Infiltration games that differ in one hidden fact (another player's
class or team, an NPC's class or team, whether a terminal is hacked, the General's code)
and in nothing else: the same roster, seed and options, the same order lines in every
phase (scripted players write them from the first twin; a line is kept only where both
twins accept it) and the same host kills at the same moments. `play_twins` resolves both
games in lockstep and hands each phase's outcome to the proof, together with whether the
twins' states still differ only in the fact itself (`Step.consequence` is false) and
whether their public records are still the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Iterator, Sequence

from engine.core import OrderBlockError, PlayerSpec, Resolution
from engine.seat_names import player_names

from tests.infiltration.scenario import RULES

PLAYER_CLASS_NAMES = ("WARRIOR", "HACKER", "SNEAKER")
NPC_CLASSES = ("warrior", "hacker", "sneaker", "renegade", "engineer")
NPC_TEAMS = ("green", "red", "neutral")
NPC_NAMES = ("Raiden", "Otacon", "Vamp")


@dataclass(frozen=True)
class Game:
    """What both twins share: the roster, seed, options, host kills and crowding.

    Scripted players rarely meet, so the proof herds them: `kills[i]` chooses the living
    character the host removes before step i; `gather[i] = (floor, members)` sends the
    chosen actors (bits of `members`, by sorted name) where guard `floor` plans to go in
    movement step i; `brawl[i] = members` makes the chosen actors attack everyone in their
    room in decision step i."""

    players: int
    npcs: tuple[tuple[str, str], ...]  # (class, team) per NPC
    seed: str
    options: dict
    kills: dict = field(default_factory=dict)
    gather: dict = field(default_factory=dict)
    brawl: dict = field(default_factory=dict)

    def specs(self, npcs: Sequence[tuple[str, str]] | None = None) -> list[PlayerSpec]:
        chosen = self.npcs if npcs is None else npcs
        return [PlayerSpec(name) for name in player_names(self.players)] + [
            PlayerSpec(NPC_NAMES[i], npc=True, npc_class=cls, npc_team=team)
            for i, (cls, team) in enumerate(chosen)
        ]


@dataclass(frozen=True)
class Fact:
    """One hidden fact and how the second twin differs in it.

    kind: `class` (a Green player's CLASS order), `team` (a Red and a Green Warrior swap
    teams), `npc-class`, `npc-team`, `hacked` (one terminal hacked from the start in the
    second twin only: `first` is its room at the start, `second` the terminal's id) or
    `code`. `holders` are the characters the fact is about; `first` and `second` are the
    fact's value in each twin."""

    kind: str
    holders: tuple[str, ...]
    first: object = None
    second: object = None


@dataclass
class Step:
    """One resolved phase (or host kill) of both twins."""

    index: int
    label: str
    before: tuple  # both states before
    after: tuple  # both states after
    resolutions: tuple  # both Resolutions
    consequence: bool  # the states differ in more than the fact itself
    public_same: bool  # the public events of this step are byte-identical

    def private(self, twin: int, name: str) -> list[dict]:
        return [event.to_json() for event in self.resolutions[twin].private.get(name, ())]

    def view(self, twin: int, name: str | None) -> dict:
        return RULES.view(self.after[twin], name)


def build_twins(game: Game, fact: Fact):
    """The two starting states."""
    npcs_b = list(game.npcs)
    if fact.kind in ("npc-class", "npc-team"):
        index = NPC_NAMES.index(fact.holders[0])
        cls, team = npcs_b[index]
        npcs_b[index] = (fact.second, team) if fact.kind == "npc-class" else (cls, fact.second)
    first = RULES.new_game(game.specs(), game.seed, game.options)
    second = RULES.new_game(game.specs(npcs_b), game.seed, game.options)
    if fact.kind == "team":
        red, green = fact.holders
        second = second.with_characters(
            [
                replace(second.characters[red], team="green"),
                replace(second.characters[green], team="red"),
            ]
        )
    elif fact.kind == "hacked":
        room = fact.first
        second = second.with_slot(room, replace(second.layout[room], hacked=True))
    elif fact.kind == "code":
        second = replace(second, code=fact.second)
    return first, second


def normalised(state, fact: Fact, hacked_tid: int | None) -> dict:
    """The state as JSON with the fact itself (and what the rules tie to it) blanked out."""
    data = RULES.to_json(state)
    for character in data["characters"]:
        if character["name"] in fact.holders:
            if fact.kind in ("class", "npc-class"):
                character["role"] = character["seen_condition"] = None
            if fact.kind in ("team", "npc-team"):
                character["team"] = None
    if hacked_tid is not None:
        for slot in data["layout"].values():
            if slot[1] == hacked_tid:
                slot[2] = None
    if fact.kind == "code":
        data["code"] = None
    return data


def _accepted(states, actor: str, lines: Sequence[str]) -> list[str]:
    """The lines both twins accept from `actor`, each judged alone."""
    kept = []
    for line in lines:
        try:
            for state in states:
                RULES.parse_orders(state, actor, [line])
        except OrderBlockError:
            continue
        kept.append(line)
    return kept


def _herded(
    first, game: Game, index: int, position: int, actor: str, lines: list[str]
) -> list[str]:
    """The scripted lines, with the actor sent to a guard's destination or into a brawl."""
    if first.step == "movement" and index in game.gather:
        floor, members = game.gather[index]
        if members >> position & 1:
            guard = first.guards["ABCDEFGH"[floor % 8]]
            return [line for line in lines if line.upper().startswith("CODE")] + [
                f"MOVE {guard.plan}"
            ]
    if first.step == "decision" and members_of(game.brawl, index, position):
        me = first.characters[actor]
        targets = [c.name for c in first.in_room(me.room) if c.name != actor]
        targets += [f"GUARD {g.floor}" for g in first.guards_in(me.room)]
        others = [line for line in lines if not line.upper().startswith("ATTACK")]
        return others + ([f"ATTACK {', '.join(targets)}"] if targets else [])
    return lines


def members_of(choices: dict, index: int, position: int) -> bool:
    return index in choices and bool(choices[index] >> position & 1)


def _orders(states, game: Game, fact: Fact, index: int) -> tuple[dict, dict]:
    """Each twin's typed orders for the open phase, from the same lines (an actor of one
    twin only, once the twins have parted, gives none)."""
    first = states[0]
    shared = set(RULES.phase(first).actors) & set(RULES.phase(states[1]).actors)
    typed: tuple[dict, dict] = ({}, {})
    for position, actor in enumerate(sorted(shared)):
        lines = _herded(
            first,
            game,
            index,
            position,
            actor,
            RULES.scripted_orders(first, actor, game.seed).splitlines(),
        )
        overrides = [lines, lines]
        if first.step == "class" and fact.kind == "class" and actor == fact.holders[0]:
            overrides = [[f"CLASS {fact.first}"], [f"CLASS {fact.second}"]]
        elif first.step == "class" and fact.kind == "team" and actor in fact.holders:
            overrides = [["CLASS WARRIOR"], ["CLASS WARRIOR"]]
        else:
            overrides = [_accepted(states, actor, lines)] * 2
        for twin in (0, 1):
            typed[twin][actor] = RULES.parse_orders(states[twin], actor, overrides[twin])
    return typed


def play_twins(
    game: Game, fact: Fact, max_steps: int = 80, hold_state: bool = True
) -> Iterator[Step]:
    """Both twins, phase by phase (a host kill is a step of its own), until the game ends or
    the twins are no longer in the same phase; with `hold_state`, also once the twins'
    states differ in more than the fact (the step where that happens is the last one)."""
    states = build_twins(game, fact)
    hacked_tid = states[0].layout[fact.first].tid if fact.kind == "hacked" else None

    def step(index: int, label: str, act: Callable[[object], Resolution]) -> Step:
        nonlocal states
        before = states
        resolutions = (act(0), act(1))
        states = (resolutions[0].state, resolutions[1].state)
        consequence = normalised(states[0], fact, hacked_tid) != normalised(
            states[1], fact, hacked_tid
        )
        public_same = [e.to_json() for e in resolutions[0].public] == [
            e.to_json() for e in resolutions[1].public
        ]
        return Step(index, label, before, states, resolutions, consequence, public_same)

    def same_phase() -> bool:
        phases = [RULES.phase(state) for state in states]
        return None not in phases and phases[0].id == phases[1].id

    for index in range(max_steps):
        if not same_phase():
            return
        phase = RULES.phase(states[0])
        if index in game.kills:
            living = sorted(c.name for c in states[0].living())
            victim = living[game.kills[index] % len(living)]
            if not states[1].characters[victim].alive:
                return
            done = step(
                index,
                f"host kill of {victim} in {phase.id}",
                lambda twin: RULES.host_kill(states[twin], victim, "removed by the host"),
            )
            yield done
            if (hold_state and done.consequence) or not same_phase():
                return
        typed = _orders(states, game, fact, index)
        done = step(index, phase.id, lambda twin: RULES.resolve(states[twin], typed[twin]))
        yield done
        if hold_state and done.consequence:
            return
