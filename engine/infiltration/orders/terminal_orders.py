"""The terminal orders (rules: Order grammar, Terminals): USE <terminal> with what each
terminal takes after its name, and HACK, DESTROY, RESTORE and REPAIR, each judged on
what the sender was shown of the terminal in their room."""

from __future__ import annotations

import re
from typing import Callable

from engine.core import IllegalOrderError, OrderSyntaxError, did_you_mean
from engine.infiltration.orders.values import (
    MESSAGE_LIMIT,
    Order,
    SenderView,
    Tamper,
    Use,
    named_character,
    named_room,
)
from engine.infiltration.rooms import FLOORS, TERMINALS
from engine.infiltration.state import RED, TECHNICIANS, UNSEEN_BY_GUARDS
from engine.infiltration.pieces import DESTROYED
from engine.infiltration.validity.statements import check_size, parse_statement


def require_terminal_here(view: SenderView, action: str) -> None:
    if view.feature not in TERMINALS:
        raise IllegalOrderError(
            f"your room ({view.room}) holds no terminal, so there is nothing to {action}."
        )
    if view.alert_here and view.role not in UNSEEN_BY_GUARDS:
        raise IllegalOrderError(
            "Alert holds: only Sneakers and Renegades may act on terminals this turn."
        )


def parse_tamper(keyword: str) -> Callable[[str, SenderView], Order]:
    def parse(rest: str, view: SenderView) -> Order:
        if rest:
            raise OrderSyntaxError(
                f"{keyword} takes nothing after it; it acts on the terminal in your room."
            )
        if keyword in ("HACK", "DESTROY") and view.team != RED:
            raise IllegalOrderError(f"only Reds can {keyword}.")
        if keyword == "RESTORE" and view.role not in TECHNICIANS:
            raise IllegalOrderError("only Hackers and Engineers can RESTORE.")
        if keyword == "REPAIR" and view.role != "engineer":
            raise IllegalOrderError("only Engineers can REPAIR.")
        require_terminal_here(view, keyword)
        if view.condition == DESTROYED and keyword != "REPAIR":
            extra = " only an Engineer can REPAIR it." if keyword == "RESTORE" else ""
            raise IllegalOrderError(
                f"the terminal in {view.room} is"
                f" destroyed;{extra or ' there is nothing left to ' + keyword + '.'}"
            )
        return Tamper(keyword)

    return parse


_USE_HEAD = re.compile(r"^([A-Za-z]+)\s*:?\s?(.*)$", re.S)


def parse_use(rest: str, view: SenderView) -> Order:
    match = _USE_HEAD.match(rest)
    if not match:
        raise OrderSyntaxError(f"USE takes the terminal's name, one of: {', '.join(TERMINALS)}.")
    word, argument = match.group(1).upper(), match.group(2)
    if word not in TERMINALS:
        raise OrderSyntaxError(
            f'"{match.group(1)}" is not a terminal.{did_you_mean(word, TERMINALS)} Terminals:'
            f" {', '.join(TERMINALS)}."
        )
    order = _TERMINAL_ARGUMENTS[word](
        word, argument if word == "MESSAGE" else argument.strip(), view
    )
    require_terminal_here(view, "use")
    if view.feature != word:
        raise IllegalOrderError(
            f"the terminal in {view.room} is {view.feature}, not {word}; write USE {view.feature}."
        )
    if view.condition == DESTROYED:
        raise IllegalOrderError(
            f"the {word} terminal in {view.room} is destroyed and cannot be used."
        )
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
    name = named_character(text, view, f"USE {word}")
    if name not in view.living:
        raise IllegalOrderError(f"{name} is dead; USE {word} takes a living player or NPC.")
    return Use(word, name)


def _room_argument(word: str, text: str, view: SenderView) -> Use:
    if not text:
        raise OrderSyntaxError(f"USE {word} takes a room, e.g. USE {word} D-4.")
    return Use(word, named_room(text, f"USE {word}"))


def _mapdata_argument(word: str, text: str, view: SenderView) -> Use:
    tokens = [t for t in re.split(r"[,\s]+", text) if t]
    rooms = tuple(named_room(t, "USE MAPDATA") for t in tokens)
    if len(rooms) != 5 or len(set(rooms)) != 5:
        raise OrderSyntaxError(
            "USE MAPDATA takes five distinct rooms, e.g. USE MAPDATA A-1 B-2 C-3 D-4 E-5."
        )
    return Use(word, rooms)


def _message_argument(word: str, text: str, view: SenderView) -> Use:
    text = text.strip()
    if not 1 <= len(text) <= MESSAGE_LIMIT:
        raise OrderSyntaxError(
            f"USE MESSAGE takes the message after it on the same line, 1 to {MESSAGE_LIMIT}"
            " characters."
        )
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
        raise OrderSyntaxError(
            "USE COMMANDER takes one or more <floor>=<room>, e.g. USE COMMANDER A=B-2 C=C-7."
        )
    destinations: dict[str, str] = {}
    for floor_text, room_text in pairs:
        floor = floor_text.upper()
        if floor not in FLOORS:
            raise OrderSyntaxError(
                f'"{floor_text}" is not a floor; guards are named by floor A … H.'
            )
        if floor in destinations:
            raise OrderSyntaxError(f"guard {floor} is given two destinations; give each guard one.")
        destinations[floor] = named_room(room_text, "USE COMMANDER")
    return Use(word, tuple(sorted(destinations.items())))


_TERMINAL_ARGUMENTS = {
    "SEER": _character_argument,
    "LOCATOR": _character_argument,
    "PSYCHIC": _no_argument,
    "SUPERLOCATOR": _no_argument,
    "GUARD": _no_argument,
    "HISTORY": _room_argument,
    "GAS": _room_argument,
    "LOCK": _room_argument,
    "SWITCH": _room_argument,
    "MAPDATA": _mapdata_argument,
    "MESSAGE": _message_argument,
    "VALIDITY": _validity_argument,
    "COMMANDER": _commander_argument,
}
