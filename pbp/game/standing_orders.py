"""The orders a phase is resolved with, re-read from the stored blocks.

Blocks are stored as accepted text and parsed again at resolution (the engine's typed
orders are not stored). Between acceptance and the deadline the state can change under a
block only by a host action (a modkill). A ruleset whose rules keep such an order standing
(Werewolf: it keeps its meaning and does nothing, so no default replaces it) reads blocks
with its `parse_standing_orders`. Otherwise a line that no longer parses (a vote for the
removed character, say) is dropped, and the rest of the player's orders still count. The
live moderator and `pbp replay` use this same function, so a replay reproduces what was
resolved.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from engine.core import OrderBlockError, Phase, Ruleset


def standing_orders(
    rules: Ruleset, state: Any, phase: Phase, blocks: Mapping[str, Sequence[str]]
) -> dict[str, tuple[Any, ...]]:
    """Each acting player's typed orders from their latest accepted block's lines."""
    parse = rules.parse_standing_orders
    orders: dict[str, tuple[Any, ...]] = {}
    for player in sorted(blocks):
        if player not in phase.actors:
            continue  # a character killed after sending has no orders
        lines = list(blocks[player])
        try:
            orders[player] = parse(state, player, lines)
        except OrderBlockError:
            orders[player] = _lines_that_still_stand(parse, state, player, lines)
    return orders


def _lines_that_still_stand(
    parse: Callable[[Any, str, Sequence[str]], tuple[Any, ...]],
    state: Any,
    player: str,
    lines: list[str],
) -> tuple[Any, ...]:
    """The block was accepted whole, so its lines are of distinct kinds: each can be judged
    alone without breaking the one-line-per-kind rule."""
    kept: list[Any] = []
    for line in lines:
        try:
            kept.extend(parse(state, player, [line]))
        except OrderBlockError:
            continue
    return tuple(kept)
