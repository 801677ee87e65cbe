"""What pbp.game.stored keeps of its last read of each game file, beside the file rather
than on it (docs/design.md: Storage — where each piece of a game lives): the file object
only reads and writes, and this memo goes when the file object goes.

Two things are kept per file: the state JSON last decoded with the state and phase it gave
(the writer's storage hands back the same JSON object until the state is written again, so
it is decoded once per version: `decoded`), and the last `StoredGame` made of the file,
handed out again while the record is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping
from weakref import WeakKeyDictionary

from engine.core import Phase, Ruleset
from pbp.errors import UserError
from pbp.storage.datafolder import GameFile


@dataclass
class DecodeMemo:
    decoded: tuple[Any, Any, Any] | None = None  # (state JSON, state, phase) of the last decode
    loaded: Any = None  # the last StoredGame made of the file


# Keyed by the file object itself: a file opened again (the next cycle's) starts empty, as
# it did when the memo hung on the object.
_memos: WeakKeyDictionary[GameFile, DecodeMemo] = WeakKeyDictionary()


def memo_of(file: GameFile) -> DecodeMemo:
    """The memo of `file`, made empty on first use."""
    memo = _memos.get(file)
    if memo is None:
        memo = _memos[file] = DecodeMemo()
    return memo


def decoded(file: GameFile, rules: Ruleset, data: Mapping[str, Any]) -> tuple[Any, Phase | None]:
    """The state and phase of a stored state JSON, decoded once per version: the writer's
    storage hands back the same JSON object until the state is written again."""
    memo = memo_of(file)
    last = memo.decoded
    if last is not None and last[0] is data:
        return last[1], last[2]
    try:
        state = rules.from_json(data)
        phase = rules.phase(state)
    except (KeyError, ValueError, TypeError) as error:
        # Most often a game started with extra roles whose module the settings no longer name.
        raise UserError(
            f"The state of game {file.id} cannot be read ({type(error).__name__}: {error}); if the "
            "game uses extra roles, check that [roles] modules in the settings still names "
            "their module."
        ) from None
    memo.decoded = (data, state, phase)
    return state, phase
