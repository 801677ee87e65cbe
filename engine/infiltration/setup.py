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
from engine.infiltration.pieces import Character, Guard

MIN_PLAYERS, MAX_PLAYERS = 5, 48
SETUP_PHASE = "T0-setup"
NAME_RULES = names.NameRules.of((CARD,))  # this ruleset's own words: no other ruleset is loaded


def new_game(specs: Sequence[PlayerSpec], seed: Any, options: Mapping[str, Any]) -> GameState:
    players = [spec for spec in specs if not spec.npc]
    npcs = [spec for spec in specs if spec.npc]
    _check_roster(players, npcs)
    reds = options["reds"] or default_reds(len(players))
    if not 1 <= reds < len(players):
        raise GameSetupError(
            f"{reds} Reds cannot play with {len(players)} players; choose 1 to {len(players) - 1}."
        )

    seed = str(seed)
    features = (
        default_features(phase_rng(seed, SETUP_PHASE, "map"))
        if options["map"] == "default"
        else parse_map(options["map"])
    )
    layout = layout_from_features(features)

    team_rng = phase_rng(seed, SETUP_PHASE, "teams")
    red_names = set(team_rng.sample(sorted(p.name for p in players), reds))

    guard_rng = phase_rng(seed, SETUP_PHASE, "guards")
    guards = {}
    for floor in FLOORS:
        room = guard_rng.choice(rooms_on_floor(floor))
        guards[floor] = Guard(floor, room, plan=room)

    room_rng = phase_rng(seed, SETUP_PHASE, "rooms")
    guarded = {g.room for g in guards.values()}
    free = [room for room in ROOMS if room not in guarded and layout[room].kind not in SPECIALS]
    if len(specs) > len(free):
        raise GameSetupError(
            f"{len(specs)} characters need distinct start rooms but only {len(free)} rooms are"
            " free; remove some NPCs."
        )
    start_rooms = room_rng.sample(free, len(specs))

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

    code = "".join(
        str(d) for d in (phase_rng(seed, SETUP_PHASE, "code").randrange(10) for _ in range(4))
    )
    state = GameState(
        seed=seed,
        options=dict(options),
        turn=0,
        step=Step.CLASS,
        characters=characters,
        guards=guards,
        layout=layout,
        code=code,
        initial_reds=reds,
    )
    return plan_guards(state, phase_rng(seed, SETUP_PHASE, "plans"))


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
