"""The day (rules: Day): nominations, the runoff round, the trial and its vote, the
Rabble Rouser's double lynch, and nightfall."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, Mapping, Sequence

from engine.core import Event, Resolution, phase_rng
from engine.werewolf.characters import faction_of, find, kill, revealed_role
from engine.werewolf.deaths import kill_with_chains
from engine.werewolf.game_state import GameState, Runoff
from engine.werewolf.night import conclude
from engine.werewolf.orders import Nominate, Vote
from engine.werewolf.phases import on_trial
from engine.werewolf.table import RoleTable
from engine.werewolf.victory import check_victory

TRIAL_PLACES = 2


def latest(
    orders: Mapping[str, Sequence[Any]], order_type: type[Any], voters: Sequence[str]
) -> dict[str, Any]:
    """Each living voter's order of this type (the block holds at most one)."""
    found = {}
    for voter in voters:
        for order in orders.get(voter, ()):
            if isinstance(order, order_type):
                found[voter] = order
    return found


def tally_of(choices: Mapping[str, str | None], counted: Sequence[str]) -> dict[str, int]:
    """The count per choice; a choice of a player the host removed in this phase stays in
    the record (it was public when accepted) but counts for nobody."""
    counts = Counter(
        target or "NO LYNCH" for target in choices.values() if target is None or target in counted
    )
    return dict(sorted(counts.items()))


def fill_places(
    counts: Mapping[str, int], places: int
) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """Rules Day §2: places won outright stand; if a tie decides the remaining place(s),
    returns the tied group and how many places they compete for."""
    standing: list[str] = []
    for count in sorted(set(counts.values()), reverse=True):
        group = sorted(name for name, n in counts.items() if n == count)
        left = places - len(standing)
        if left <= 0:
            break
        if len(group) <= left:
            standing.extend(group)
        else:
            return tuple(standing), tuple(group), left
    return tuple(standing), (), 0


def nominations_event(
    state: GameState, round_name: str, nominations: Mapping[str, Nominate]
) -> Event:
    choices = {voter: order.target for voter, order in nominations.items()}
    missing = [name for name in state.living if name not in nominations]
    return Event(
        "nominations",
        {
            "day": state.day,
            "round": round_name,
            "nominations": choices,
            "missing": missing,
            "tally": tally_of(choices, state.living),
        },
    )


def standing_nominations(
    state: GameState, orders: Mapping[str, Sequence[Any]], allowed: Sequence[str]
) -> dict[str, Nominate]:
    """Each living player's nomination of an allowed candidate; one of a candidate the host
    removed since stands in the record and counts for nobody."""
    return {
        voter: order
        for voter, order in latest(orders, Nominate, state.living).items()
        if order.target in allowed or order.target in state.removed
    }


def counted(nominations: Mapping[str, Nominate], state: GameState) -> list[Nominate]:
    living = set(state.living)
    return [order for order in nominations.values() if order.target in living]


def resolve_nominations(
    state: GameState, orders: Mapping[str, Sequence[Any]], table: RoleTable
) -> Resolution:
    nominations = standing_nominations(state, orders, state.living)
    public = [nominations_event(state, "nominate", nominations)]
    state = state.count_actions(["nominate"] * len(nominations))
    if not counted(nominations, state):
        public.append(Event("no_nominations", {"day": state.day}))
        return nightfall(state, public, table)
    counts = Counter(order.target for order in counted(nominations, state))
    standing, tied, places = fill_places(counts, TRIAL_PLACES)
    if tied:
        public.append(
            Event(
                "runoff",
                {
                    "day": state.day,
                    "standing": list(standing),
                    "tied": list(tied),
                    "places": places,
                },
            )
        )
        state = replace(
            state, phase_id=f"D{state.day}-runoff", runoff=Runoff(standing, tied, places)
        )
        return conclude(state, public, {}, table, start_of_day=False)
    return close_nominations(state, standing, public, table)


def resolve_runoff(
    state: GameState, orders: Mapping[str, Sequence[Any]], table: RoleTable
) -> Resolution:
    """Rules Day §2: one runoff among the tied fills the remaining place(s); a second tie
    is settled by a seeded draw."""
    runoff = state.runoff
    assert runoff is not None  # the runoff phase always carries its runoff
    living = set(state.living)
    tied = [name for name in runoff.tied if name in living]
    standing = [name for name in runoff.standing if name in living]
    nominations = standing_nominations(state, orders, tied)
    public = [nominations_event(state, "runoff", nominations)]
    state = state.count_actions(["nominate"] * len(nominations))
    places = min(runoff.places, len(tied))
    counts = Counter({name: 0 for name in tied})
    counts.update(order.target for order in counted(nominations, state))
    won, still_tied, left = fill_places(counts, places)
    drawn: list[str] = []
    if still_tied:
        drawn = sorted(
            phase_rng(state.seed, state.phase_id, "runoff-draw").sample(sorted(still_tied), left)
        )
        public.append(
            Event("runoff_draw", {"day": state.day, "among": list(still_tied), "drawn": drawn})
        )
    return close_nominations(state, tuple(standing) + won + tuple(drawn), public, table)


def close_nominations(
    state: GameState, defendants: Sequence[str], public: list[Event], table: RoleTable
) -> Resolution:
    """Rules Day §3: with rabble roused the defendants are lynched at once and Dn-vote is
    skipped; otherwise the trial opens."""
    defendants = tuple(d for d in (c.name for c in state.characters) if d in defendants)
    if not defendants:
        public.append(Event("no_nominations", {"day": state.day}))
        return nightfall(state, public, table)
    if state.rabble:
        public.append(Event("rabble_roused", {"day": state.day, "defendants": list(defendants)}))
        return lynch(replace(state, rabble=False), defendants, public, table)
    public.append(Event("trial", {"day": state.day, "defendants": list(defendants)}))
    state = replace(state, phase_id=f"D{state.day}-vote", runoff=None, defendants=defendants)
    return conclude(state, public, {}, table, start_of_day=False)


def resolve_vote(
    state: GameState, orders: Mapping[str, Sequence[Any]], table: RoleTable
) -> Resolution:
    """Rules Day §3: two defendants: more votes is lynched, a tie lynches nobody; one
    defendant: lynched if votes for them exceed votes for NO LYNCH."""
    defendants = list(on_trial(state))
    votes = {
        voter: order
        for voter, order in latest(orders, Vote, state.living).items()
        if order.target is None or order.target in state.defendants
    }
    choices = {voter: order.target for voter, order in votes.items()}
    missing = [name for name in state.living if name not in votes]
    tally = tally_of(choices, defendants)
    public = [
        Event(
            "votes",
            {
                "day": state.day,
                "defendants": list(defendants),
                "votes": choices,
                "missing": missing,
                "tally": tally,
            },
        )
    ]
    state = state.count_actions(["vote"] * len(votes))
    lynched: tuple[str, ...] = ()
    if len(defendants) == 1:
        if tally.get(defendants[0], 0) > tally.get("NO LYNCH", 0):
            lynched = (defendants[0],)
    elif len(defendants) == 2:
        first, second = (tally.get(d, 0) for d in defendants)
        if first != second:
            lynched = (defendants[0] if first > second else defendants[1],)
    if not lynched:
        public.append(Event("no_lynch", {"day": state.day, "defendants": list(defendants)}))
        return nightfall(replace(state, last_lynch=()), public, table)
    return lynch(state, lynched, public, table)


def lynch(
    state: GameState, victims: Sequence[str], public: list[Event], table: RoleTable
) -> Resolution:
    """The lynch victims die, their lovers with them; victory is checked, then night falls.
    A double lynch is two lynches, in alphabetical order, whatever bonds join the two (two
    lovers are both "lynched"); chains follow. The Apothecary will learn of each victim."""
    victims = sorted(victims)
    characters = state.characters
    records = tuple(
        (victim, faction_of(state.character(victim), table.by_name)) for victim in victims
    )
    deaths = []
    for victim in victims:
        characters = kill(characters, victim, "lynch", state.phase_id)
        deaths.append((victim, "lynch"))
    for victim in victims:
        characters, chained = kill_with_chains(
            characters, victim, "lynch", state.phase_id, state.lovers, already_dead=True
        )
        deaths.extend(chained)
    for name, cause in deaths:
        event = {"day": state.day, "player": name}
        if state.option("reveal_roles"):
            event["role"] = revealed_role(find(characters, name))
        public.append(Event("lynch" if cause == "lynch" else "also_died", event))
    state = replace(state, characters=characters, last_lynch=records)
    return nightfall(state, public, table)


def nightfall(state: GameState, public: list[Event], table: RoleTable) -> Resolution:
    """Night n follows day n; the silence ends with the day."""
    state = replace(
        state,
        phase_id=f"N{state.day}",
        runoff=None,
        defendants=(),
        silenced=None,
        last_lynch=state.last_lynch if state.last_lynch is not None else (),
    )
    public = list(public)
    if check_victory(state.characters, table, start_of_day=False) is None:
        public.append(Event("night_falls", {"night": state.day}))
    return conclude(state, public, {}, table, start_of_day=False)
