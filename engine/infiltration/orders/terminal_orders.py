"""The terminal orders (rules: Order grammar, Terminals): USE <terminal> with what each
terminal takes after its name, and HACK, DESTROY, RESTORE and REPAIR, each judged on
what the sender was shown of the terminal in their room."""

from __future__ import annotations

import re
from typing import Callable

from engine.core import IllegalOrderError, OrderSyntaxError
from engine.errors import suggestion
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
        if action == "use":
            raise IllegalOrderError.of(
                "your room (%(room)s) holds no terminal, so there is nothing to use.",
                room=view.room,
            )
        raise IllegalOrderError.of(
            "your room (%(room)s) holds no terminal, so there is nothing to %(keyword)s.",
            room=view.room,
            keyword=action,
        )
    if view.alert_here and view.role not in UNSEEN_BY_GUARDS:
        raise IllegalOrderError(
            "Alert holds: only Sneakers and Renegades may act on terminals this turn."
        )


def parse_tamper(keyword: str) -> Callable[[str, SenderView], Order]:
    def parse(rest: str, view: SenderView) -> Order:
        if rest:
            raise OrderSyntaxError.of(
                "%(keyword)s takes nothing after it; it acts on the terminal in your room.",
                keyword=keyword,
            )
        if keyword in ("HACK", "DESTROY") and view.team != RED:
            raise IllegalOrderError.of("only Reds can %(keyword)s.", keyword=keyword)
        if keyword == "RESTORE" and view.role not in TECHNICIANS:
            raise IllegalOrderError("only Hackers and Engineers can RESTORE.")
        if keyword == "REPAIR" and view.role != "engineer":
            raise IllegalOrderError("only Engineers can REPAIR.")
        require_terminal_here(view, keyword)
        if view.condition == DESTROYED and keyword != "REPAIR":
            if keyword == "RESTORE":
                raise IllegalOrderError.of(
                    "the terminal in %(room)s is destroyed; only an Engineer can REPAIR it.",
                    room=view.room,
                )
            raise IllegalOrderError.of(
                "the terminal in %(room)s is destroyed; there is nothing left to %(keyword)s.",
                room=view.room,
                keyword=keyword,
            )
        return Tamper(keyword)

    return parse


_USE_HEAD = re.compile(r"^([A-Za-z]+)\s*:?\s?(.*)$", re.S)


def parse_use(rest: str, view: SenderView) -> Order:
    match = _USE_HEAD.match(rest)
    if not match:
        raise OrderSyntaxError.of(
            "USE takes the terminal's name, one of: %(terminals)s.", terminals=", ".join(TERMINALS)
        )
    word, argument = match.group(1).upper(), match.group(2)
    if word not in TERMINALS:
        raise OrderSyntaxError.of(
            '"%(word)s" is not a terminal.%(hint)s Terminals: %(terminals)s.',
            word=match.group(1),
            hint=suggestion(word, TERMINALS),
            terminals=", ".join(TERMINALS),
        )
    order = _TERMINAL_ARGUMENTS[word](
        word, argument if word == "MESSAGE" else argument.strip(), view
    )
    require_terminal_here(view, "use")
    if view.feature != word:
        raise IllegalOrderError.of(
            "the terminal in %(room)s is %(feature)s, not %(word)s; write USE %(feature)s.",
            room=view.room,
            feature=view.feature,
            word=word,
        )
    if view.condition == DESTROYED:
        raise IllegalOrderError.of(
            "the %(word)s terminal in %(room)s is destroyed and cannot be used.",
            word=word,
            room=view.room,
        )
    return order


def _no_argument(word: str, text: str, view: SenderView) -> Use:
    if text:
        raise OrderSyntaxError.of("USE %(word)s takes nothing after it.", word=word)
    return Use(word)


def _character_argument(word: str, text: str, view: SenderView) -> Use:
    if not text:
        raise OrderSyntaxError.of(
            "USE %(word)s takes a player's name, e.g. USE %(word)s Bob.", word=word
        )
    if text.upper().startswith("GUARD"):
        raise IllegalOrderError.of("USE %(word)s takes a player or NPC, never a guard.", word=word)
    name = named_character(text, view, f"USE {word}")
    if name not in view.living:
        raise IllegalOrderError.of(
            "%(name)s is dead; USE %(word)s takes a living player or NPC.", name=name, word=word
        )
    return Use(word, name)


def _room_argument(word: str, text: str, view: SenderView) -> Use:
    if not text:
        raise OrderSyntaxError.of("USE %(word)s takes a room, e.g. USE %(word)s D-4.", word=word)
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
        raise OrderSyntaxError.of(
            "USE MESSAGE takes the message after it on the same line, 1 to %(limit)s characters.",
            limit=MESSAGE_LIMIT,
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
            raise OrderSyntaxError.of(
                '"%(text)s" is not a floor; guards are named by floor A … H.', text=floor_text
            )
        if floor in destinations:
            raise OrderSyntaxError.of(
                "guard %(floor)s is given two destinations; give each guard one.", floor=floor
            )
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
