"""The orders each actor may give in the open phase, for order forms and HELP
(rules: Order grammar). Choices list only what the actor already knows."""
from __future__ import annotations

from engine.core import OrderSpec
from engine.infiltration.orders import NO_LYNCH, NO_REDS_LEFT, sender_view
from engine.infiltration.rooms import ROOMS, TERMINALS
from engine.infiltration.state import DESTROYED, RED, TECHNICIANS, UNSEEN_BY_GUARDS, GameState

_USE_SYNTAX = {
    "SEER": ("USE SEER <player>", "tells the player's team"),
    "LOCATOR": ("USE LOCATOR <player>", "tells the player's room"),
    "PSYCHIC": ("USE PSYCHIC", "tells how many Reds are alive"),
    "SUPERLOCATOR": ("USE SUPERLOCATOR", "tells every living character's room"),
    "GUARD": ("USE GUARD", "tells every living guard's next destination"),
    "HISTORY": ("USE HISTORY <room>", "tells who was in the room, and when"),
    "GAS": ("USE GAS <room>", "kills everyone in the room, guards too"),
    "LOCK": ("USE LOCK <room>", "locks the room for next turn's movement"),
    "SWITCH": ("USE SWITCH <room>", "swaps this terminal with the room's terminal"),
    "MAPDATA": ("USE MAPDATA <room> <room> <room> <room> <room>", "tells five rooms' features"),
    "MESSAGE": ("USE MESSAGE <text>", "publishes the text unsigned (1-500 characters)"),
    "VALIDITY": ("USE VALIDITY <statement>", "tells whether the statement is true"),
    "COMMANDER": ("USE COMMANDER <floor>=<room> ...", "sends guards where you say, e.g. A=B-2 C=C-7"),
}


def actor_grammar(state: GameState, name: str) -> tuple[OrderSpec, ...]:
    view = sender_view(state, name)
    if state.step == "class":
        choices = ("WARRIOR",) if view.team == RED else ("WARRIOR", "HACKER", "SNEAKER")
        return (OrderSpec("CLASS", "CLASS <class>", choices, "your class for the whole game"),)
    if state.step == "movement":
        return (OrderSpec("MOVE", "MOVE <room>", ROOMS, "any room, A-1 … H-8"),
                OrderSpec("STAY", "STAY", (), "stay where you are (the default)"),
                OrderSpec("CODE", "CODE <four digits>", (), "opens the hangar's outer door when you move in"))
    specs = []
    may_act = view.feature in TERMINALS and not (view.alert_here and view.role not in UNSEEN_BY_GUARDS)
    if may_act and view.condition != DESTROYED:
        syntax, note = _USE_SYNTAX[view.feature]
        choices = ()
        if view.feature in ("SEER", "LOCATOR"):
            choices = tuple(sorted(n for n in view.living))
        specs.append(OrderSpec("USE", syntax, choices, note))
        if view.team == RED:
            specs.append(OrderSpec("HACK", "HACK", (), "the terminal gives wrong results from now on"))
            specs.append(OrderSpec("DESTROY", "DESTROY", (), "nobody can use the terminal any more"))
        if view.role in TECHNICIANS:
            specs.append(OrderSpec("RESTORE", "RESTORE", (), "undoes a hack on this terminal"))
    if may_act and view.role == "engineer":
        specs.append(OrderSpec("REPAIR", "REPAIR", (), "makes a destroyed terminal work again"))
    if not view.npc:
        specs.append(OrderSpec("VOTE", "VOTE <player>|NO LYNCH|NO REDS LEFT",
                               tuple(sorted(view.living_players)) + (NO_LYNCH, NO_REDS_LEFT), "the lynch vote"))
    targets = tuple(sorted(view.company)) + tuple(f"GUARD {floor}" for floor in view.guards_here)
    if targets:
        specs.append(OrderSpec("ATTACK", "ATTACK <name>, <name> ...", targets, "attack who is in your room"))
    return tuple(specs)
