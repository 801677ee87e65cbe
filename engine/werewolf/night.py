"""Night resolution (rules: Night): the first night, a night and the Witch's sub-phase; the
steps in the night order, and dawn (deaths with their chains, role changes, reports,
victory)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from engine.core import Event, Resolution
from engine.werewolf.characters import Character, faction_of, kill, revealed_role
from engine.werewolf.game_state import GameState
from engine.werewolf.model import Night, NightStep
from engine.werewolf.phases import full_first_night
from engine.werewolf.table import RoleTable
from engine.werewolf.victory import check_victory
from engine.werewolf.deaths import deaths_at_dawn
from engine.werewolf.teams import change_reports


def begin_night(
    state: GameState, table: RoleTable, number: int, orders: Mapping[str, Sequence[Any]]
) -> Night:
    return Night(
        number=number,
        seed=state.seed,
        options=state.options,
        roles=table.by_name,
        characters=state.characters,
        orders=order_pairs(orders),
        lovers=state.lovers,
        last_lynch=state.last_lynch,
        stamp=state.stamp,
    )


def order_pairs(orders: Mapping[str, Sequence[Any]]) -> tuple[tuple[str, Any], ...]:
    return tuple((player, order) for player in sorted(orders) for order in orders[player])


def run_steps(night: Night, table: RoleTable, first: NightStep, last: NightStep) -> Night:
    for role in table.steps(first, last):
        night = role.resolve(night)  # type: ignore[misc]  # table.steps keeps only roles with a resolve
    return night


def has_witch(state: GameState) -> bool:
    """Rules: `Nn-witch` happens every night when a Witch is in the setup."""
    return "witch" in state.setup


# --------------------------------------------------------------------------- the phases
def resolve_first_night(
    state: GameState, orders: Mapping[str, Sequence[Any]], table: RoleTable
) -> Resolution:
    """N0: the Romantic picks a lover; both learn each other; day 1 begins. With
    `first_night=full` the whole night follows the Romantic's step, as any night's."""
    first = begin_night(state, table, 0, orders)
    for step in table.first_night_steps:
        first = step(first)
    if full_first_night(state):
        return night_steps(state, first, table)
    return dawn(state, first, table)


def resolve_night(
    state: GameState, orders: Mapping[str, Sequence[Any]], table: RoleTable
) -> Resolution:
    """Nn: Succubus to the creatures; then the Witch's sub-phase, or straight on to the
    Seer and dawn when no Witch is in the setup."""
    return night_steps(state, begin_night(state, table, state.day, orders), table)


def night_steps(state: GameState, current: Night, table: RoleTable) -> Resolution:
    current = run_steps(current, table, NightStep.SUCCUBUS, NightStep.CREATURES)
    if has_witch(state):
        pending = replace(state, pending=current, phase_id=f"N{state.day}-witch")
        private: dict[str, tuple[Event, ...]] = {}
        for witch in current.characters:
            # The Witch as she knows herself: the role she held at dusk; told even when
            # seduced or struck by the Ninja tonight, so nothing shows before dawn.
            if state.character(witch.name).role == "witch" and state.character(witch.name).alive:
                private[witch.name] = (
                    Event("witch_told", {"night": state.day, "target": current.wolf_target}),
                )
        pending = replace(
            pending,
            characters=tuple(
                replace(c, inbox=c.inbox + private[c.name]) if c.name in private else c
                for c in pending.characters
            ),
        )
        return Resolution(pending, (), private)
    current = run_steps(current, table, NightStep.WITCH, NightStep.SEER)
    return dawn(state, current, table)


def resolve_witch(
    state: GameState, orders: Mapping[str, Sequence[Any]], table: RoleTable
) -> Resolution:
    """Nn-witch: the Witch's potions, then the Seer; then dawn."""
    assert state.pending is not None  # the witch sub-phase always carries the pending night
    current = replace(state.pending, orders=state.pending.orders + order_pairs(orders))
    current = run_steps(current, table, NightStep.WITCH, NightStep.SEER)
    return dawn(replace(state, pending=None), current, table)


# --------------------------------------------------------------------------- dawn
def apply_conversions(
    night: Night, table: RoleTable, characters: tuple[Character, ...]
) -> tuple[Character, ...]:
    """Bites, infections: role and creature changes that take effect at dawn (dead: none)."""
    for name, what, value in night.conversions:
        character = next(c for c in characters if c.name == name)
        if not character.alive:
            continue
        if what == "role":
            changes: dict[str, Any] = {
                "role": value,
                "creature": None,
                "role_state": table.by_name[value].initial_state,
            }
        else:
            changes = {"creature": value}
        characters = tuple(replace(c, **changes) if c.name == name else c for c in characters)
    return characters


def dawn(state: GameState, night: Night, table: RoleTable) -> Resolution:
    """Dawn: deaths, role and faction changes, private reports, the public post, victory."""
    # Every night death is dated to the night itself (`Nn`), never to `Nn-witch`: the
    # Ninja's kills already carry `Nn`, and a different date would tell them apart.
    phase_id = night.phase_id
    # Inboxes live in the game state (the Witch's report of the wolves' choice arrived
    # there between `Nn` and `Nn-witch`); the night's working copy does not hold them.
    inboxes = {c.name: c.inbox for c in state.characters}
    characters = tuple(
        c if c.inbox is inboxes[c.name] else replace(c, inbox=inboxes[c.name])
        for c in night.characters
    )
    # One the host removed tonight keeps the role published with the removal: a seduction
    # that reached them earlier in the night must not show later (rules: a host kill during
    # a night).
    dusk = {c.name: c for c in state.characters}
    characters = tuple(
        (
            replace(
                c,
                role=dusk[c.name].role,
                role_state=dusk[c.name].role_state,
                creature=dusk[c.name].creature,
            )
            if c.name in state.night_removed
            else c
        )
        for c in characters
    )
    deaths = deaths_at_dawn(night, state.night_removed)
    for name, cause in deaths:
        characters = kill(characters, name, cause, phase_id)
    characters = apply_conversions(night, table, characters)
    stamp = night.stamp
    # Anyone whose faction changed tonight is the youngest of it (rules: Weregerbils). All
    # changes take place at dawn, so those made the same night share one stamp and are
    # equally young (the bite's tie rule then draws among them).
    before = {c.name: c for c in state.characters}
    joiners = {
        c.name
        for c in characters
        if faction_of(c, table.by_name) != faction_of(before[c.name], table.by_name)
    }
    if joiners:
        stamp += 1
        characters = tuple(replace(c, joined=stamp) if c.name in joiners else c for c in characters)

    private: dict[str, list[Event]] = {}
    for name, event in night.reports:
        private.setdefault(name, []).append(event)
    characters, changes = change_reports(state.characters, characters, table)
    for event_name, events in changes.items():
        private.setdefault(event_name, []).extend(events)
    if night.silenced:
        private.setdefault(night.silenced, []).append(Event("silenced", {"day": night.number + 1}))
    alive_after = {c.name for c in characters if c.alive}
    # Whoever was alive at dusk gets the night's reports: for one who died tonight they are
    # the last report, and they explain what the dead player's view shows (a seduction).
    alive_at_dusk = {c.name for c in state.characters if c.alive}
    private = {name: events for name, events in private.items() if name in alive_at_dusk}

    night_dead = [name for name, _ in night.dead_now] + [name for name, _ in deaths]
    ordered = [c.name for c in state.characters if c.name in night_dead]
    dawn_event = {"day": night.number + 1, "deaths": ordered}
    if state.option("reveal_roles"):
        dawn_event["roles"] = {
            name: revealed_role(next(c for c in characters if c.name == name)) for name in ordered
        }
    public = [Event("dawn", dawn_event)]

    new_state = replace(
        state,
        characters=characters,
        stamp=stamp,
        pending=None,
        day=night.number + 1,
        night_removed=(),
        phase_id=f"D{night.number + 1}-nominate",
        runoff=None,
        defendants=(),
        last_lynch=None,
        rabble=state.rabble or night.rabble,
        lovers=night.lovers or state.lovers,
        silenced=night.silenced if night.silenced in alive_after else None,
    ).count_actions(night.actions)
    return conclude(new_state, public, private, table, start_of_day=True)


def conclude(
    state: GameState,
    public: list[Event],
    private: Mapping[str, list[Event]],
    table: RoleTable,
    start_of_day: bool,
) -> Resolution:
    """Record the events in the state (public log, inboxes), then check victory."""
    result = check_victory(state.characters, table, start_of_day)
    if result:
        if dict(state.options).get("modkill_loses", True):  # rules: Victory (option)
            result = replace(
                result, players=tuple(p for p in result.players if p not in state.modkilled)
            )
        roles = {c.name: revealed_role(c) for c in state.characters}
        public = list(public) + [Event("game_over", {**result.to_json(), "roles": roles})]
        state = replace(state, result=result, phase_id="over", runoff=None, defendants=())
    characters = tuple(
        replace(c, inbox=c.inbox + tuple(private.get(c.name, ()))) if private.get(c.name) else c
        for c in state.characters
    )
    state = replace(state, characters=characters, public_log=state.public_log + tuple(public))
    return Resolution(
        state, tuple(public), {name: tuple(events) for name, events in private.items() if events}
    )
