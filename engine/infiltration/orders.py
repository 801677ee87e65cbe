"""Orders: typed values with a canonical text, and the parser (rules: Order grammar).

Two stages, python-chess style: a line that is not an order of the grammar raises
`OrderSyntaxError`; a well-formed order this sender may not give now raises
`IllegalOrderError`. Legality is judged only on what the sender knows (their own team and
class, their room and its feature as they were shown it, who is in the room with them,
public facts): a wrong CODE, for instance, is accepted here and found out at the door.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Sequence

from engine.core import IllegalOrderError, OrderBlockError, OrderError, OrderSyntaxError, did_you_mean
from engine.names import name_key
from engine.infiltration.rooms import FLOORS, TERMINALS, parse_room
from engine.infiltration.state import (
    DESTROYED, PLAYER_CLASSES, RED, TECHNICIANS, UNSEEN_BY_GUARDS, GameState, guard_name,
)
from engine.infiltration.validity import check_size, parse_statement

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
KIND_HINT = {"movement": "one MOVE or STAY", "terminal": "one terminal action (USE, HACK, DESTROY, RESTORE or REPAIR)",
             "class": "one CLASS", "code": "one CODE", "vote": "one VOTE", "attack": "one ATTACK listing every target"}
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
            return f"{head}: {argument}"   # the colon keeps a message that starts with ':' intact
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
    choice: str   # a player's name, NO LYNCH or NO REDS LEFT

    def __str__(self) -> str:
        return f"VOTE {self.choice}"


@dataclass(frozen=True)
class Attack:
    targets: tuple[str, ...]   # names and "guard X", in the order given

    def __str__(self) -> str:
        return "ATTACK " + ", ".join(
            f"GUARD {t[-1]}" if t.startswith("guard ") else t for t in self.targets)


Order = ChooseClass | Move | Stay | EnterCode | Use | Tamper | Vote | Attack


_KIND_OF_TYPE = {ChooseClass: "class", Move: "movement", Stay: "movement", EnterCode: "code",
                 Use: "terminal", Tamper: "terminal", Vote: "vote", Attack: "attack"}


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
    names: dict[str, str]    # name_key -> canonical, every character ever in the game
    living: frozenset[str]   # living characters (players and NPCs): public
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
        state.derived[key] = Everyone(names=state.names_by_key, living=state.living_names,
                                      living_players=state.living_player_names)
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
            phase=state.step, name=me.name, team=me.team, role=me.role, npc=me.npc, alive=me.alive,
            room=me.room, feature=me.seen_feature, condition=me.seen_condition,
            names=shared.names, living=shared.living, living_players=shared.living_players,
            company=frozenset(name for name in living if name != me.name),
            guards_here=tuple(guard[-1] for guard in guards),   # `guard C`, by floor
            alert_here=state.alert_in(me.room),
        )
    view: SenderView = state.derived[key]
    return view


# ---------------------------------------------------------------------- parsing
def parse_block(state: GameState, player: str, lines: Sequence[str]) -> tuple[Order, ...]:
    """Every order of one block, or OrderBlockError with every error (1-based lines)."""
    view = sender_view(state, player)
    orders: list[Order] = []
    errors: list[OrderError] = []
    seen_kinds: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            order = parse_line(text, view)
            kind = kind_of(order)
            if kind in seen_kinds:
                raise IllegalOrderError(
                    f"line {{earlier}} already gave a {kind} order; send {KIND_HINT[kind]} per block.",
                    earlier=seen_kinds[kind])
            seen_kinds[kind] = number
            orders.append(order)
        except OrderError as error:
            errors.append(error.at(number, text))
    if errors:
        raise OrderBlockError(errors)
    return tuple(orders)


_HEAD = re.compile(r"^([A-Za-z]+)\s*:?\s*(.*)$", re.S)


def parse_line(text: str, view: SenderView) -> Order:
    """One order line (already stripped, not a comment)."""
    match = _HEAD.match(text)
    if not match:
        raise OrderSyntaxError(f"an order starts with a keyword; {_phase_hint(view)}")
    keyword, rest = match.group(1).upper(), match.group(2).strip()
    if keyword not in KEYWORDS:
        hint = _phase_hint(view)
        raise OrderSyntaxError(f'unknown order "{match.group(1)}".{_closest_order(keyword, view)} '
                               f'{hint[0].upper()}{hint[1:]}')
    if not view.alive:
        raise IllegalOrderError("you are dead; dead characters give no orders.")
    if keyword not in PHASE_KEYWORDS[view.phase]:
        raise IllegalOrderError(f"{keyword} is not an order of this phase; {_phase_hint(view)}")
    return _PARSERS[keyword](rest, view)


def _closest_order(keyword: str, view: SenderView) -> str:
    """` Did you mean X?` for an unknown order word: a bare class in the class phase is the
    CLASS order, and the phase's own orders come before those of other phases."""
    if view.phase == "class" and keyword in CLASS_NAMES:
        return f" Did you mean CLASS {keyword}?"
    return did_you_mean(keyword, PHASE_KEYWORDS[view.phase]) or did_you_mean(keyword, KEYWORDS)


def _phase_hint(view: SenderView) -> str:
    return f"in a {view.phase} phase you can give: {', '.join(PHASE_KEYWORDS[view.phase])}."



def _parse_class(rest: str, view: SenderView) -> Order:
    word = rest.upper()
    if word not in CLASS_NAMES:
        raise OrderSyntaxError(f"CLASS takes WARRIOR, HACKER or SNEAKER.{did_you_mean(word, CLASS_NAMES)}")
    if view.npc:
        raise IllegalOrderError("an NPC's class is set by the host; NPCs give no CLASS order.")
    if view.team == RED and word != "WARRIOR":
        raise IllegalOrderError("Reds are always Warriors; send CLASS WARRIOR or no CLASS order.")
    return ChooseClass(word.lower())


def _room(text: str, what: str) -> str:
    room = parse_room(text)
    if room is None:
        raise OrderSyntaxError(f'"{text}" is not a room; {what} takes a room like D-4 (A-1 … H-8).')
    return room


def _parse_move(rest: str, view: SenderView) -> Order:
    if not rest:
        raise OrderSyntaxError("MOVE takes a room, e.g. MOVE D-4; to stay where you are, send STAY.")
    return Move(_room(rest, "MOVE"))


def _parse_stay(rest: str, view: SenderView) -> Order:
    if rest:
        raise OrderSyntaxError("STAY takes nothing after it; to go somewhere, send MOVE <room>.")
    return Stay()


def _parse_code(rest: str, view: SenderView) -> Order:
    if not re.fullmatch(r"\d{4}", rest):
        raise OrderSyntaxError("CODE takes four digits, e.g. CODE 0429.")
    return EnterCode(rest)


def _parse_vote(rest: str, view: SenderView) -> Order:
    words = " ".join(rest.upper().split())
    if words in (NO_LYNCH, NO_REDS_LEFT):
        choice = words
    else:
        choice = _name(rest, view, "VOTE")
    if view.npc:
        raise IllegalOrderError("NPCs never vote.")
    if choice in (NO_LYNCH, NO_REDS_LEFT):
        return Vote(choice)
    if choice not in view.living_players:
        what = "is dead" if choice not in view.living else "is an NPC and cannot be lynched"
        raise IllegalOrderError(f"{choice} {what}; vote for a living player, NO LYNCH or NO REDS LEFT.")
    return Vote(choice)


def _name(text: str, view: SenderView, what: str) -> str:
    name = view.names.get(name_key(text))
    if name is None:
        hint = did_you_mean(text.strip(), sorted(view.names.values()))
        raise OrderSyntaxError(f'"{text.strip()}" is not a player or NPC of this game.{hint} {what} takes a name.')
    return name


def _parse_attack(rest: str, view: SenderView) -> Order:
    tokens = [t for t in re.split(r"[,\s]+", rest) if t]
    if not tokens:
        raise OrderSyntaxError("ATTACK takes the names in your room, e.g. ATTACK Bob, GUARD C.")
    targets: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.upper() == "GUARD":
            following = tokens[index + 1].upper() if index + 1 < len(tokens) else ""
            if following in FLOORS:
                floor = following
                index += 2
            else:
                if len(view.guards_here) != 1:
                    raise IllegalOrderError(
                        "bare GUARD needs exactly one guard in your room; name it, e.g. GUARD C.")
                floor = view.guards_here[0]
                index += 1
            if floor not in view.guards_here:
                raise IllegalOrderError(f"guard {floor} is not in your room; you can attack only who is with you.")
            target = guard_name(floor)
        else:
            target = _name(token, view, "ATTACK")
            index += 1
            if target == view.name:
                raise IllegalOrderError("you cannot attack yourself.")
            if target not in view.company:
                raise IllegalOrderError(f"{target} is not in your room; you can attack only who is with you.")
        if target in targets:
            raise OrderSyntaxError(f"{target} is named twice; name each target once.")
        targets.append(target)
    return Attack(tuple(targets))


def _require_terminal_here(view: SenderView, action: str) -> None:
    if view.feature not in TERMINALS:
        raise IllegalOrderError(f"your room ({view.room}) holds no terminal, so there is nothing to {action}.")
    if view.alert_here and view.role not in UNSEEN_BY_GUARDS:
        raise IllegalOrderError("Alert holds: only Sneakers and Renegades may act on terminals this turn.")


def _parse_tamper(keyword: str) -> Callable[[str, SenderView], Order]:
    def parse(rest: str, view: SenderView) -> Order:
        if rest:
            raise OrderSyntaxError(f"{keyword} takes nothing after it; it acts on the terminal in your room.")
        if keyword in ("HACK", "DESTROY") and view.team != RED:
            raise IllegalOrderError(f"only Reds can {keyword}.")
        if keyword == "RESTORE" and view.role not in TECHNICIANS:
            raise IllegalOrderError("only Hackers and Engineers can RESTORE.")
        if keyword == "REPAIR" and view.role != "engineer":
            raise IllegalOrderError("only Engineers can REPAIR.")
        _require_terminal_here(view, keyword)
        if view.condition == DESTROYED and keyword != "REPAIR":
            extra = " only an Engineer can REPAIR it." if keyword == "RESTORE" else ""
            raise IllegalOrderError(f"the terminal in {view.room} is destroyed;{extra or ' there is nothing left to ' + keyword + '.'}")
        return Tamper(keyword)
    return parse


_USE_HEAD = re.compile(r"^([A-Za-z]+)\s*:?\s?(.*)$", re.S)


def _parse_use(rest: str, view: SenderView) -> Order:
    match = _USE_HEAD.match(rest)
    if not match:
        raise OrderSyntaxError(f"USE takes the terminal's name, one of: {', '.join(TERMINALS)}.")
    word, argument = match.group(1).upper(), match.group(2)
    if word not in TERMINALS:
        raise OrderSyntaxError(f'"{match.group(1)}" is not a terminal.{did_you_mean(word, TERMINALS)} Terminals: {", ".join(TERMINALS)}.')
    order = _TERMINAL_ARGUMENTS[word](word, argument if word == "MESSAGE" else argument.strip(), view)
    _require_terminal_here(view, "use")
    if view.feature != word:
        raise IllegalOrderError(f"the terminal in {view.room} is {view.feature}, not {word}; write USE {view.feature}.")
    if view.condition == DESTROYED:
        raise IllegalOrderError(f"the {word} terminal in {view.room} is destroyed and cannot be used.")
    return order


def _no_argument(word: str, text: str, view: SenderView) -> Use:
    if text:
        raise OrderSyntaxError(f"USE {word} takes nothing after it.")
    return Use(word)


def _character_argument(word: str, text: str, view: SenderView) -> Use:
    if not text:
        raise OrderSyntaxError(f"USE {word} takes a player's name, e.g. USE {word} Bob.")
    if text.upper().startswith("GUARD"):
        raise IllegalOrderError(f"USE {word} takes a player or NPC, never a guard.")
    name = _name(text, view, f"USE {word}")
    if name not in view.living:
        raise IllegalOrderError(f"{name} is dead; USE {word} takes a living player or NPC.")
    return Use(word, name)


def _room_argument(word: str, text: str, view: SenderView) -> Use:
    if not text:
        raise OrderSyntaxError(f"USE {word} takes a room, e.g. USE {word} D-4.")
    return Use(word, _room(text, f"USE {word}"))


def _mapdata_argument(word: str, text: str, view: SenderView) -> Use:
    tokens = [t for t in re.split(r"[,\s]+", text) if t]
    rooms = tuple(_room(t, "USE MAPDATA") for t in tokens)
    if len(rooms) != 5 or len(set(rooms)) != 5:
        raise OrderSyntaxError("USE MAPDATA takes five distinct rooms, e.g. USE MAPDATA A-1 B-2 C-3 D-4 E-5.")
    return Use(word, rooms)


def _message_argument(word: str, text: str, view: SenderView) -> Use:
    text = text.strip()
    if not 1 <= len(text) <= MESSAGE_LIMIT:
        raise OrderSyntaxError(f"USE MESSAGE takes the message after it on the same line, 1 to {MESSAGE_LIMIT} characters.")
    return Use(word, text)


def _validity_argument(word: str, text: str, view: SenderView) -> Use:
    if not text:
        raise OrderSyntaxError("USE VALIDITY takes a statement, e.g. USE VALIDITY Bob IS IN D-4.")
    statement = parse_statement(text, view.names.values())
    check_size(statement)
    return Use(word, statement)


def _commander_argument(word: str, text: str, view: SenderView) -> Use:
    pairs = re.findall(r"([A-Za-z])\s*=\s*([A-Za-z]-?\d)", text)
    leftover = re.sub(r"([A-Za-z])\s*=\s*([A-Za-z]-?\d)", "", text).replace(",", " ").strip()
    if not pairs or leftover:
        raise OrderSyntaxError("USE COMMANDER takes one or more <floor>=<room>, e.g. USE COMMANDER A=B-2 C=C-7.")
    destinations: dict[str, str] = {}
    for floor_text, room_text in pairs:
        floor = floor_text.upper()
        if floor not in FLOORS:
            raise OrderSyntaxError(f'"{floor_text}" is not a floor; guards are named by floor A … H.')
        if floor in destinations:
            raise OrderSyntaxError(f"guard {floor} is given two destinations; give each guard one.")
        destinations[floor] = _room(room_text, "USE COMMANDER")
    return Use(word, tuple(sorted(destinations.items())))


_TERMINAL_ARGUMENTS = {
    "SEER": _character_argument, "LOCATOR": _character_argument,
    "PSYCHIC": _no_argument, "SUPERLOCATOR": _no_argument, "GUARD": _no_argument,
    "HISTORY": _room_argument, "GAS": _room_argument, "LOCK": _room_argument, "SWITCH": _room_argument,
    "MAPDATA": _mapdata_argument, "MESSAGE": _message_argument, "VALIDITY": _validity_argument,
    "COMMANDER": _commander_argument,
}

_PARSERS = {
    "CLASS": _parse_class, "MOVE": _parse_move, "STAY": _parse_stay, "CODE": _parse_code,
    "USE": _parse_use, "VOTE": _parse_vote, "ATTACK": _parse_attack,
    **{keyword: _parse_tamper(keyword) for keyword in TAMPER_ACTIONS},
}
