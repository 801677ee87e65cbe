"""Orders: typed values with a canonical text, and what a sender knows when giving them
(rules: Order grammar). The parser is engine.infiltration.orders.order_parsing.

Two stages, python-chess style: a line that is not an order of the grammar raises
`OrderSyntaxError`; a well-formed order this sender may not give now raises
`IllegalOrderError`. Legality is judged only on what the sender knows (their own team and
class, their room and its feature as they were shown it, who is in the room with them,
public facts): a wrong CODE, for instance, is accepted here and found out at the door.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.core import OrderSyntaxError
from engine.errors import Wording, suggestion
from engine.names import name_key
from engine.infiltration.rooms import parse_room
from engine.infiltration.state import PLAYER_CLASSES, GameState

NO_LYNCH, NO_REDS_LEFT = "NO LYNCH", "NO REDS LEFT"
TAMPER_ACTIONS = ("HACK", "DESTROY", "RESTORE", "REPAIR")
CLASS_NAMES = tuple(name.upper() for name in PLAYER_CLASSES)
KEYWORDS = ("CLASS", "MOVE", "STAY", "CODE", "USE", "VOTE", "ATTACK") + TAMPER_ACTIONS
PHASE_KEYWORDS = {
    "class": ("CLASS",),
    "movement": ("MOVE", "STAY", "CODE"),
    "decision": ("USE",) + TAMPER_ACTIONS + ("VOTE", "ATTACK"),
}
# One line of each kind per block (rules: Order grammar).
# A second order of a kind in one block, refused in a sentence per kind (one message each
# for a translator; `{earlier}` is the line of the first, engine.errors.OrderError).
TWICE = {
    "movement": Wording(
        "line {earlier} already gave a movement order; send one MOVE or STAY per block."
    ),
    "terminal": Wording(
        "line {earlier} already gave a terminal order; send one terminal action "
        "(USE, HACK, DESTROY, RESTORE or REPAIR) per block."
    ),
    "class": Wording("line {earlier} already gave a class order; send one CLASS per block."),
    "code": Wording("line {earlier} already gave a code order; send one CODE per block."),
    "vote": Wording("line {earlier} already gave a vote order; send one VOTE per block."),
    "attack": Wording(
        "line {earlier} already gave a attack order; send one ATTACK listing every target "
        "per block."
    ),
}
MESSAGE_LIMIT = 500


# ---------------------------------------------------------------------- order values
@dataclass(frozen=True)
class ChooseClass:
    role: str

    def __str__(self) -> str:
        return f"CLASS {self.role.upper()}"


@dataclass(frozen=True)
class Move:
    room: str

    def __str__(self) -> str:
        return f"MOVE {self.room}"


@dataclass(frozen=True)
class Stay:
    def __str__(self) -> str:
        return "STAY"


@dataclass(frozen=True)
class EnterCode:
    digits: str

    def __str__(self) -> str:
        return f"CODE {self.digits}"


@dataclass(frozen=True)
class Use:
    """A terminal use. `argument` by terminal: a name (SEER, LOCATOR), a room (HISTORY,
    GAS, LOCK, SWITCH), a tuple of five rooms (MAPDATA), the text (MESSAGE), a validity
    Statement (VALIDITY), a tuple of (floor, room) pairs sorted by floor (COMMANDER), or
    None (PSYCHIC, SUPERLOCATOR, GUARD)."""

    terminal: str
    argument: Any = None

    def __str__(self) -> str:
        head = f"USE {self.terminal}"
        argument = self.argument
        if self.terminal == "MESSAGE":
            return f"{head}: {argument}"  # the colon keeps a message that starts with ':' intact
        if argument is None:
            return head
        if self.terminal == "MAPDATA":
            return f"{head} {' '.join(argument)}"
        if self.terminal == "COMMANDER":
            return f"{head} {' '.join(f'{floor}={room}' for floor, room in argument)}"
        return f"{head} {argument}"


@dataclass(frozen=True)
class Tamper:
    """HACK, DESTROY (Reds), RESTORE (Hackers, Engineers) or REPAIR (Engineers)."""

    action: str

    def __str__(self) -> str:
        return self.action


@dataclass(frozen=True)
class Vote:
    choice: str  # a player's name, NO LYNCH or NO REDS LEFT

    def __str__(self) -> str:
        return f"VOTE {self.choice}"


@dataclass(frozen=True)
class Attack:
    targets: tuple[str, ...]  # names and "guard X", in the order given

    def __str__(self) -> str:
        return "ATTACK " + ", ".join(
            f"GUARD {t[-1]}" if t.startswith("guard ") else t for t in self.targets
        )


Order = ChooseClass | Move | Stay | EnterCode | Use | Tamper | Vote | Attack


_KIND_OF_TYPE = {
    ChooseClass: "class",
    Move: "movement",
    Stay: "movement",
    EnterCode: "code",
    Use: "terminal",
    Tamper: "terminal",
    Vote: "vote",
    Attack: "attack",
}


def kind_of(order: Order) -> str:
    """The block-rule kind of an order: at most one of each kind per block."""
    return _KIND_OF_TYPE[type(order)]


# ---------------------------------------------------------------------- what the sender knows
class SenderView(NamedTuple):
    """The facts an order is judged against: only what the sender already knows. (A named
    tuple: one is made for every sender of every phase, and a tuple is made several times
    faster than a frozen dataclass.)"""

    phase: str
    name: str
    team: str
    role: str
    npc: bool
    alive: bool
    room: str
    feature: str
    condition: str
    names: dict[str, str]  # name_key -> canonical, every character ever in the game
    living: frozenset[str]  # living characters (players and NPCs): public
    living_players: frozenset[str]
    company: frozenset[str]  # other living characters in the sender's room
    guards_here: tuple[str, ...]  # floors of living guards in the sender's room
    alert_here: bool


@dataclass(frozen=True)
class Everyone:
    """The parts of a sender's view that are the same for every sender of a state."""

    names: dict[str, str]
    living: frozenset[str]
    living_players: frozenset[str]


def everyone(state: GameState) -> Everyone:
    """The parts of a sender's view every sender of the state shares, made once."""
    key = ("everyone", "")
    if key not in state.derived:
        state.derived[key] = Everyone(
            names=state.names_by_key,
            living=state.living_names,
            living_players=state.living_player_names,
        )
    shared: Everyone = state.derived[key]
    return shared


def sender_view(state: GameState, player: str) -> SenderView:
    """What `player` knows when giving orders, made once per state and player (the order
    form and the parser both ask)."""
    key = ("sender", player)
    if key not in state.derived:
        me = state.characters[player]
        shared = everyone(state)
        living, guards, _corpses = state.sight(me.room)
        state.derived[key] = SenderView(
            phase=state.step,
            name=me.name,
            team=me.team,
            role=me.role,
            npc=me.npc,
            alive=me.alive,
            room=me.room,
            feature=me.seen_feature,
            condition=me.seen_condition,
            names=shared.names,
            living=shared.living,
            living_players=shared.living_players,
            company=frozenset(name for name in living if name != me.name),
            guards_here=tuple(guard[-1] for guard in guards),  # `guard C`, by floor
            alert_here=state.alert_in(me.room),
        )
    view: SenderView = state.derived[key]
    return view


def named_room(text: str, what: str) -> str:
    """The room `text` names, or OrderSyntaxError saying what `what` takes."""
    room = parse_room(text)
    if room is None:
        raise OrderSyntaxError.of(
            '"%(text)s" is not a room; %(keyword)s takes a room like D-4 (A-1 … H-8).',
            text=text,
            keyword=what,
        )
    return room


def named_character(text: str, view: SenderView, what: str) -> str:
    """The character `text` names (any case and accents), or OrderSyntaxError."""
    name = view.names.get(name_key(text))
    if name is None:
        raise OrderSyntaxError.of(
            '"%(text)s" is not a player or NPC of this game.%(hint)s %(keyword)s takes a name.',
            text=text.strip(),
            hint=suggestion(text.strip(), sorted(view.names.values())),
            keyword=what,
        )
    return name
