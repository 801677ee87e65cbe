"""A new game (rules: Cast and setup)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.core import GameSetupError, PlayerSpec, phase_rng
from engine import names
from engine.infiltration.card import CARD
from engine.infiltration.facility import default_features, layout_from_features, parse_map
from engine.infiltration.steps.guards import plan_guards
from engine.infiltration.rooms import FLOORS, ROOMS, SPECIALS, rooms_on_floor
from engine.infiltration.variants import default_reds
from engine.infiltration.state import CLASSES, GREEN, RED, TEAMS, GameState, Step
from engine.infiltration.pieces import Character, Guard, Slot

MIN_PLAYERS, MAX_PLAYERS = 5, 48
SETUP_PHASE = "T0-setup"
NAME_RULES = names.NameRules.of((CARD,))  # this ruleset's own words: no other ruleset is loaded


def new_game(specs: Sequence[PlayerSpec], seed: Any, options: Mapping[str, Any]) -> GameState:
    players = [spec for spec in specs if not spec.npc]
    npcs = [spec for spec in specs if spec.npc]
    _check_roster(players, npcs)
    reds = _red_count(options, len(players))
    # Each draw has its own generator (phase_rng by purpose), so none shifts another.
    seed = str(seed)
    features = (
        default_features(phase_rng(seed, SETUP_PHASE, "map"))
        if options["map"] == "default"
        else parse_map(options["map"])
    )
    layout = layout_from_features(features)
    team_rng = phase_rng(seed, SETUP_PHASE, "teams")
    red_names = set(team_rng.sample(sorted(p.name for p in players), reds))
    guards = _placed_guards(seed)
    start_rooms = _start_rooms(seed, specs, layout, guards)
    code = "".join(
        str(d) for d in (phase_rng(seed, SETUP_PHASE, "code").randrange(10) for _ in range(4))
    )
    state = GameState(
        seed=seed,
        options=dict(options),
        turn=0,
        step=Step.CLASS,
        characters=_characters(specs, start_rooms, red_names),
        guards=guards,
        layout=layout,
        code=code,
        initial_reds=reds,
    )
    return plan_guards(state, phase_rng(seed, SETUP_PHASE, "plans"))


def _red_count(options: Mapping[str, Any], players: int) -> int:
    """The Reds the options ask for (none: the default for the player count), checked."""
    reds: int = options["reds"] or default_reds(players)
    if not 1 <= reds < players:
        raise GameSetupError(
            f"{reds} Reds cannot play with {players} players; choose 1 to {players - 1}."
        )
    return reds


def _placed_guards(seed: str) -> dict[str, Guard]:
    """One guard per floor, in a room of its floor drawn at random."""
    guard_rng = phase_rng(seed, SETUP_PHASE, "guards")
    guards = {}
    for floor in FLOORS:
        room = guard_rng.choice(rooms_on_floor(floor))
        guards[floor] = Guard(floor, room, plan=room)
    return guards


def _start_rooms(
    seed: str, specs: Sequence[PlayerSpec], layout: Mapping[str, Slot], guards: Mapping[str, Guard]
) -> list[str]:
    """A distinct start room for each character, none guarded and none special."""
    room_rng = phase_rng(seed, SETUP_PHASE, "rooms")
    guarded = {g.room for g in guards.values()}
    free = [room for room in ROOMS if room not in guarded and layout[room].kind not in SPECIALS]
    if len(specs) > len(free):
        raise GameSetupError(
            f"{len(specs)} characters need distinct start rooms but only {len(free)} rooms are"
            " free; remove some NPCs."
        )
    return room_rng.sample(free, len(specs))


def _characters(
    specs: Sequence[PlayerSpec], start_rooms: list[str], red_names: set[str]
) -> dict[str, Character]:
    """Every character in its start room, by name: players as Warriors of their team, NPCs
    as their spec says."""
    characters = {}
    for spec, room in sorted(zip(specs, start_rooms), key=lambda pair: pair[0].name):
        if spec.npc:
            assert spec.npc_team is not None and spec.npc_class is not None  # an NPC spec has both
            characters[spec.name] = Character(
                spec.name, spec.npc_team.lower(), spec.npc_class.lower(), True, room
            )
        else:
            team = RED if spec.name in red_names else GREEN
            characters[spec.name] = Character(spec.name, team, "warrior", False, room)
    return characters


def _check_roster(players: list[PlayerSpec], npcs: list[PlayerSpec]) -> None:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise GameSetupError(
            f"Infiltration needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}."
        )
    # The roster's name rule: every name must be one that the orders can address.
    problems = names.roster_problems([spec.name for spec in players + npcs], NAME_RULES)
    if problems:
        raise GameSetupError(f"Some names cannot be used: {'; '.join(problems)}.")
    for spec in players + npcs:
        if spec.name.lower().startswith("guard"):
            raise GameSetupError(f"The name {spec.name!r} would read as a guard; choose another.")
    for spec in npcs:
        if (spec.npc_class or "").lower() not in CLASSES:
            raise GameSetupError(f"NPC {spec.name} needs a class, one of: {', '.join(CLASSES)}.")
        if (spec.npc_team or "").lower() not in TEAMS:
            raise GameSetupError(f"NPC {spec.name} needs a team, one of: {', '.join(TEAMS)}.")
