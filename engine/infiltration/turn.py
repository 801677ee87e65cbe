"""Resolving each phase, in the order the rules give (rules: Phases and their ids;
Resolution of a decision phase)."""

from __future__ import annotations

from typing import Mapping, Sequence, TypeVar

from engine.core import Event, Resolution, phase_rng
from engine.infiltration.steps.alert import alert_floors
from engine.infiltration.steps.arrival import arrival_reports, arrive, fellow_reds, red_reports
from engine.infiltration.steps.fights import fight
from engine.infiltration.steps.gas import release_gas
from engine.infiltration.steps.guards import move_guards, plan_guards
from engine.infiltration.steps.lynch import LYNCHED, NO_REDS_LEFT_PASSED, count_votes
from engine.infiltration.steps.movement import MOVED, STAYED, intended_moves, resolve_moves
from engine.infiltration.orders.values import Attack, ChooseClass, Order, Tamper, Use, Vote
from engine.infiltration.evolve import evolve
from engine.infiltration.state import GREEN, GameState, Step
from engine.infiltration.steps.terminals import run_terminals
from engine.infiltration import victory

Orders = Mapping[str, Sequence[Order]]
_Kind = TypeVar("_Kind")


class _Reports:
    """Private events gathered during one resolution, per recipient, in order."""

    def __init__(self, recipients: Sequence[str] = ()):
        self.by_name: dict[str, list[Event]] = {name: [] for name in recipients}

    def add(self, reports: Mapping[str, Sequence[Event]]) -> None:
        for name, events in reports.items():
            self.by_name.setdefault(name, []).extend(events)

    def frozen(self) -> dict[str, tuple[Event, ...]]:
        return {name: tuple(events) for name, events in sorted(self.by_name.items())}


def _first(orders: Sequence[Order], kind: type[_Kind]) -> _Kind | None:
    for order in orders:  # a loop, not next(generator): asked several times per player and phase
        if isinstance(order, kind):
            return order
    return None


def _open_movement(state: GameState, turn: int) -> tuple[GameState, dict[str, list[Event]]]:
    """A movement phase opens: old locks expire (a lock set in turn t lasts until turn
    t+2's movement opens), Alert lapses, and every living Red gets the occupancy report."""
    locks = {room: set_turn for room, set_turn in state.locks.items() if set_turn >= turn - 1}
    state = evolve(state, turn=turn, step=Step.MOVEMENT, locks=locks, alert_floors=())
    return red_reports(state)


# ---------------------------------------------------------------------- T0-class
def resolve_class(state: GameState, orders: Orders) -> Resolution:
    """Greens' class choices (non-choosers get the default class option); Reds stay
    Warriors. Ends with an arrival report for each start room."""
    changed = []
    for character in state.players():
        if character.team != GREEN:
            continue
        chosen = _first(orders.get(character.name, ()), ChooseClass)
        role = chosen.role if chosen else state.options["default_class"]
        changed.append(evolve(character, role=role))
    state = arrive(state.with_characters(changed))
    reports = _Reports()
    reports.add(
        {
            c.name: [
                Event(
                    "role",
                    {"team": c.team, "class": c.role, "npc": c.npc, **fellow_reds(state, c.name)},
                )
            ]
            for c in state.living()
        }
    )
    reports.add(arrival_reports(state, {}, {}))
    state, red = _open_movement(state, 1)
    reports.add(red)
    return Resolution(
        state,
        (
            Event(
                "game_start",
                {
                    "players": sorted(c.name for c in state.players()),
                    "npcs": sorted(c.name for c in state.characters.values() if c.npc),
                },
            ),
        ),
        reports.frozen(),
    )


# ---------------------------------------------------------------------- Tn-movement
def resolve_movement(state: GameState, orders: Orders) -> Resolution:
    """Guards move, then players arrive, specials trigger, Alert is evaluated, victory is
    checked; each living character gets an arrival report and the public hears of Alert."""
    intents = {
        name: destination for name, (destination, _code) in intended_moves(state, orders).items()
    }
    state = move_guards(state)
    state, outcomes = resolve_moves(state, orders)
    state = arrive(state)
    state = evolve(state, alert_floors=alert_floors(state))
    reports = _Reports()
    reports.add(
        arrival_reports(
            state,
            outcomes,
            {n: d for n, d in intents.items() if outcomes.get(n) not in (MOVED, STAYED)},
        )
    )
    scope = state.options["alert_scope"]
    public = [
        Event(
            "alert",
            {
                "turn": state.turn,
                "holds": bool(state.alert_floors),
                "scope": scope,
                "floors": list(state.alert_floors) if scope == "floor" else [],
            },
        )
    ]
    result = victory.after_arrival(state)
    if result:
        state, event = victory.end_game(state, result)
        public.append(event)
    else:
        state = evolve(state, step=Step.DECISION)
    return Resolution(state, tuple(public), reports.frozen())


# ---------------------------------------------------------------------- Tn-decision
def resolve_decision(state: GameState, orders: Orders) -> Resolution:
    """Lynch, combat, terminals, gas, reports; victory after the lynch and at the end."""
    phase_id = state.phase_id
    reports = _Reports([c.name for c in state.living()])
    public: list[Event] = []
    state = plan_guards(state, phase_rng(state.seed, phase_id, "guards"))

    # 1. Lynch.
    votes = {}
    for name, given in orders.items():
        vote = _first(given, Vote)
        if vote and name in state.characters and not state.characters[name].npc:
            votes[name] = vote.choice
    outcome = count_votes(
        votes,
        [c.name for c in state.living_players()],
        state.options["tie"],
        state.options["phantom_votes"],
        phase_rng(state.seed, phase_id, "lynch"),
    )
    state = evolve(state, last_votes=outcome.votes).counted(*("vote" for _ in votes))
    public.append(
        Event(
            "votes",
            {
                "turn": state.turn,
                "votes": outcome.votes,
                "phantom": list(outcome.phantom),
                "tally": outcome.tally,
            },
        )
    )
    public.append(
        Event(
            "lynch",
            {
                "turn": state.turn,
                "outcome": outcome.kind,
                "victim": outcome.victim,
                "reason": outcome.reason,
            },
        )
    )
    if outcome.kind == NO_REDS_LEFT_PASSED:
        state, event = victory.end_game(state, victory.no_reds_left(state))
        return Resolution(state, tuple(public + [event]), reports.frozen())
    if outcome.kind == LYNCHED:
        state = state.killed(outcome.victim, "lynch")  # type: ignore[arg-type]  # a lynch has a victim
        reports.add({outcome.victim: [death_notice(state, outcome.victim)]})  # type: ignore[dict-item, arg-type]  # as above
    result = victory.head_count(state)
    if result:
        state, event = victory.end_game(state, result)
        return Resolution(state, tuple(public + [event]), reports.frozen())

    # 2. Combat.
    declared = {}
    for name, given in orders.items():
        attack = _first(given, Attack)
        if attack:
            declared[name] = attack.targets
    state = state.counted(
        *(
            "attack"
            for name in declared
            if name in state.characters and state.characters[name].alive
        )
    )
    state, deaths, combat_reports = fight(state, declared)
    killed_by = {
        victim: by
        for events in combat_reports.values()
        for event in events
        for victim, by in event.data["killers"].items()
    }
    reports.add(combat_reports)

    # 3. Terminals (the state as this step begins).
    terminal_orders = {}
    for name, given in orders.items():
        action = _first(given, Use) or _first(given, Tamper)
        if action:
            terminal_orders[name] = action
    outcome3 = run_terminals(state, terminal_orders, phase_rng(state.seed, phase_id, "terminals"))
    state = outcome3.state
    reports.add(outcome3.reports)

    # 4. Gas.
    state, gassed, gas_reports = release_gas(state, outcome3.gassed)
    reports.add(gas_reports)

    # 5. Reports: deaths by name only, alphabetically; messages in drawn order. Each
    # character who died is told so plainly, and how, as the last line of their report.
    dead_characters = sorted(
        {name for name in list(deaths) + gassed if not name.startswith("guard ")}
    )
    reports.add(
        {name: [death_notice(state, name, killed_by.get(name, []))] for name in dead_characters}
    )
    public.append(Event("deaths", {"turn": state.turn, "names": dead_characters}))
    for text in outcome3.messages:
        public.append(Event("anonymous_message", {"turn": state.turn, "text": text}))

    result = victory.end_of_resolution(state)
    if result:
        state, event = victory.end_game(state, result)
        public.append(event)
    else:
        state, red = _open_movement(state, state.turn + 1)
        reports.add(red)
    return Resolution(state, tuple(public), reports.frozen())


def death_notice(state: GameState, name: str, killers: Sequence[str] = ()) -> Event:
    """What a character who just died is told about it: that they died, on which turn, and
    how (`lynch`, `combat` or `guard` with who killed them, `gas`, `host`). After it they
    receive no more reports."""
    character = state.characters[name]
    return Event(
        "you_died",
        {
            "turn": state.turn,
            "cause": character.cause,
            "room": character.room,
            "killers": list(killers),
        },
    )
