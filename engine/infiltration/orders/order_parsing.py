"""Parsing an Infiltration order block (rules: Order grammar): one line at a time, each
keyword to its parser, every error of the block listed (engine.core.OrderBlockError); the
terminal orders (USE, HACK, DESTROY, RESTORE, REPAIR) are read by
engine.infiltration.orders.terminal_orders."""

from __future__ import annotations

import re
from typing import Sequence

from engine.core import IllegalOrderError, OrderSyntaxError, parse_order_block
from engine.errors import Wording, suggestion
from engine.infiltration.orders.values import (
    CLASS_NAMES,
    KEYWORDS,
    NO_LYNCH,
    NO_REDS_LEFT,
    PHASE_KEYWORDS,
    TAMPER_ACTIONS,
    TWICE,
    Attack,
    ChooseClass,
    EnterCode,
    Move,
    Order,
    SenderView,
    Stay,
    Vote,
    kind_of,
    named_character,
    named_room,
    sender_view,
)
from engine.infiltration.rooms import FLOORS
from engine.infiltration.state import RED, GameState
from engine.infiltration.pieces import guard_name
from engine.infiltration.orders.terminal_orders import parse_tamper, parse_use


def parse_block(state: GameState, player: str, lines: Sequence[str]) -> tuple[Order, ...]:
    """Every order of one block, or OrderBlockError with every error (1-based lines)."""
    view = sender_view(state, player)
    return parse_order_block(lines, lambda text: parse_line(text, view), kind_of, TWICE.__getitem__)


_HEAD = re.compile(r"^([A-Za-z]+)\s*:?\s*(.*)$", re.S)


def parse_line(text: str, view: SenderView) -> Order:
    """One order line (already stripped, not a comment)."""
    match = _HEAD.match(text)
    if not match:
        raise OrderSyntaxError.of(
            "an order starts with a keyword; in a %(phase)s phase you can give: %(keywords)s.",
            phase=view.phase,
            keywords=_phase_keywords(view),
        )
    keyword, rest = match.group(1).upper(), match.group(2).strip()
    if keyword not in KEYWORDS:
        raise OrderSyntaxError.of(
            'unknown order "%(word)s".%(hint)s In a %(phase)s phase you can give: %(keywords)s.',
            word=match.group(1),
            hint=_closest_order(keyword, view),
            phase=view.phase,
            keywords=_phase_keywords(view),
        )
    if not view.alive:
        raise IllegalOrderError("you are dead; dead characters give no orders.")
    if keyword not in PHASE_KEYWORDS[view.phase]:
        raise IllegalOrderError.of(
            "%(keyword)s is not an order of this phase; in a %(phase)s phase you can give: "
            "%(keywords)s.",
            keyword=keyword,
            phase=view.phase,
            keywords=_phase_keywords(view),
        )
    return _PARSERS[keyword](rest, view)


def _closest_order(keyword: str, view: SenderView) -> Wording:
    """` Did you mean X?` for an unknown order word: a bare class in the class phase is the
    CLASS order, and the phase's own orders come before those of other phases."""
    if view.phase == "class" and keyword in CLASS_NAMES:
        return Wording(" Did you mean CLASS %(word)s?", {"word": keyword})
    near = suggestion(keyword, PHASE_KEYWORDS[view.phase])
    return near if near.template else suggestion(keyword, KEYWORDS)


def _phase_keywords(view: SenderView) -> str:
    return ", ".join(PHASE_KEYWORDS[view.phase])


def _parse_class(rest: str, view: SenderView) -> Order:
    word = rest.upper()
    if word not in CLASS_NAMES:
        raise OrderSyntaxError.of(
            "CLASS takes WARRIOR, HACKER or SNEAKER.%(hint)s", hint=suggestion(word, CLASS_NAMES)
        )
    if view.npc:
        raise IllegalOrderError("an NPC's class is set by the host; NPCs give no CLASS order.")
    if view.team == RED and word != "WARRIOR":
        raise IllegalOrderError("Reds are always Warriors; send CLASS WARRIOR or no CLASS order.")
    return ChooseClass(word.lower())


def _parse_move(rest: str, view: SenderView) -> Order:
    if not rest:
        raise OrderSyntaxError(
            "MOVE takes a room, e.g. MOVE D-4; to stay where you are, send STAY."
        )
    return Move(named_room(rest, "MOVE"))


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
        choice = named_character(rest, view, "VOTE")
    if view.npc:
        raise IllegalOrderError("NPCs never vote.")
    if choice in (NO_LYNCH, NO_REDS_LEFT):
        return Vote(choice)
    if choice not in view.living_players:
        if choice not in view.living:
            raise IllegalOrderError.of(
                "%(name)s is dead; vote for a living player, NO LYNCH or NO REDS LEFT.", name=choice
            )
        raise IllegalOrderError.of(
            "%(name)s is an NPC and cannot be lynched; vote for a living player, NO LYNCH or "
            "NO REDS LEFT.",
            name=choice,
        )
    return Vote(choice)


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
                        "bare GUARD needs exactly one guard in your room; name it, e.g. GUARD C."
                    )
                floor = view.guards_here[0]
                index += 1
            if floor not in view.guards_here:
                raise IllegalOrderError.of(
                    "guard %(floor)s is not in your room; you can attack only who is with you.",
                    floor=floor,
                )
            target = guard_name(floor)
        else:
            target = named_character(token, view, "ATTACK")
            index += 1
            if target == view.name:
                raise IllegalOrderError("you cannot attack yourself.")
            if target not in view.company:
                raise IllegalOrderError.of(
                    "%(name)s is not in your room; you can attack only who is with you.",
                    name=target,
                )
        if target in targets:
            raise OrderSyntaxError.of(
                "%(name)s is named twice; name each target once.", name=target
            )
        targets.append(target)
    return Attack(tuple(targets))


_PARSERS = {
    "CLASS": _parse_class,
    "MOVE": _parse_move,
    "STAY": _parse_stay,
    "CODE": _parse_code,
    "USE": parse_use,
    "VOTE": _parse_vote,
    "ATTACK": _parse_attack,
    **{keyword: parse_tamper(keyword) for keyword in TAMPER_ACTIONS},
}
