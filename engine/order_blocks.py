"""The one loop that reads an order block, for every ruleset (docs/design.md: Engine
contract): blank lines and `#` comments are skipped, each other line is read by the
ruleset's own line reader, one order of a kind per block, and every bad line is listed
(a block is accepted whole or refused whole)."""

from __future__ import annotations

from typing import Callable, Sequence, TypeVar

from engine.errors import IllegalOrderError, OrderBlockError, OrderError, Wording

Order = TypeVar("Order")


def parse_order_block(
    lines: Sequence[str],
    read_line: Callable[[str], Order],
    kind_of: Callable[[Order], str],
    twice: Callable[[str], str | Wording],
    legality: Callable[[Order], None] = lambda order: None,
) -> tuple[Order, ...]:
    """Every order of a block, or OrderBlockError with every bad line (1-based).

    `read_line(text)` reads one stripped line or raises OrderError (placeless); a second
    order of one kind (`kind_of`) is refused with `twice(kind)`, a sentence holding
    `{earlier}` for the line that gave the first; `legality(order)` then raises
    IllegalOrderError when the sender may not give it now. Only a line that passes all
    three counts as the kind's line."""
    orders: list[Order] = []
    errors: list[OrderError] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            order = read_line(text)
            kind = kind_of(order)
            if kind in seen:
                raise IllegalOrderError(twice(kind), earlier=seen[kind])
            legality(order)
        except OrderError as error:
            errors.append(error.at(number, text))
            continue
        seen[kind] = number
        orders.append(order)
    if errors:
        raise OrderBlockError(errors)
    return tuple(orders)
