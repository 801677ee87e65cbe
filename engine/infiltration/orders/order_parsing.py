"""Parsing an Infiltration order block (rules: Order grammar): one line at a time, each
keyword to its parser, every error of the block listed (engine.core.OrderBlockError); the
terminal orders (USE, HACK, DESTROY, RESTORE, REPAIR) are read by
engine.infiltration.orders.terminal_orders."""

from __future__ import annotations

import re
from typing import Sequence

from engine.core import IllegalOrderError, OrderSyntaxError, did_you_mean, parse_order_block
from engine.infiltration.orders.values import (
    CLASS_NAMES,
    KEYWORDS,
    KIND_HINT,
    NO_LYNCH,
    NO_REDS_LEFT,
    PHASE_KEYWORDS,
    TAMPER_ACTIONS,
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
    return parse_order_block(
        lines,
        lambda text: parse_line(text, view),
        kind_of,
        lambda kind: (
            f"line {{earlier}} already gave a {kind} order; send {KIND_HINT[kind]} per block."
        ),
    )


_HEAD = re.compile(r"^([A-Za-z]+)\s*:?\s*(.*)$", re.S)


def parse_line(text: str, view: SenderView) -> Order:
    """One order line (already stripped, not a comment)."""
    match = _HEAD.match(text)
    if not match:
        raise OrderSyntaxError(f"an order starts with a keyword; {_phase_hint(view)}")
    keyword, rest = match.group(1).upper(), match.group(2).strip()
    if keyword not in KEYWORDS:
        hint = _phase_hint(view)
        raise OrderSyntaxError(
            f'unknown order "{match.group(1)}".{_closest_order(keyword, view)} '
            f"{hint[0].upper()}{hint[1:]}"
        )
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
        raise OrderSyntaxError(
            f"CLASS takes WARRIOR, HACKER or SNEAKER.{did_you_mean(word, CLASS_NAMES)}"
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
        what = "is dead" if choice not in view.living else "is an NPC and cannot be lynched"
        raise IllegalOrderError(
            f"{choice} {what}; vote for a living player, NO LYNCH or NO REDS LEFT."
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
                raise IllegalOrderError(
                    f"guard {floor} is not in your room; you can attack only who is with you."
                )
            target = guard_name(floor)
        else:
            target = named_character(token, view, "ATTACK")
            index += 1
            if target == view.name:
                raise IllegalOrderError("you cannot attack yourself.")
            if target not in view.company:
                raise IllegalOrderError(
                    f"{target} is not in your room; you can attack only who is with you."
                )
        if target in targets:
            raise OrderSyntaxError(f"{target} is named twice; name each target once.")
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
