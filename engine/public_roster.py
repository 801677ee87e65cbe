"""What a ruleset's card tells the shell about the public side of a game, with the
defaults a card starts from (docs/design.md: Engine contract): every character as everyone
may know it, the picture of the board, the name of a finished game's setup. Imported
through `engine.core`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence


@dataclass(frozen=True)
class PublicCharacter:
    """One character as everyone may know it (`RulesetCard.public_roster`): whether it
    lives, whether the host plays it, and for a dead one when it died and what its death
    revealed, in the rules' words ("" while unknown or hidden)."""

    name: str
    alive: bool
    npc: bool = False
    died: str = ""
    flip: str = ""


def listed_characters(
    view: Mapping[str, Any],
    died: Callable[[Mapping[str, Any]], str] = lambda entry: str(entry.get("died_in") or ""),
) -> tuple[PublicCharacter, ...]:
    """The default `RulesetCard.public_roster`: the public view's `players` list (`name`,
    `alive`, `npc`, and a flip's `team`, `class` and `role`); `died(entry)` words when a
    dead one died (by default its `died_in` phase id)."""
    listed = []
    for entry in view.get("players", []):
        if not isinstance(entry, Mapping):
            continue
        alive = bool(entry.get("alive"))
        flip = " ".join(
            str(entry[key]) for key in ("team", "class", "role") if entry.get(key)
        ).replace("_", " ")
        listed.append(
            PublicCharacter(
                str(entry["name"]),
                alive,
                bool(entry.get("npc")),
                "" if alive else died(entry),
                flip,
            )
        )
    return tuple(listed)


def no_board(view: Mapping[str, Any], word: Callable[[str], str]) -> str:
    """The default `RulesetCard.board_svg`: the ruleset draws no board."""
    return ""


def no_board_text(view: Mapping[str, Any], word: Callable[[str], str]) -> str:
    """The default `RulesetCard.board_text`: the ruleset draws no board."""
    return ""


def no_setup_name(seats: Sequence[tuple[str, str]]) -> str:
    """The default `RulesetCard.setup_name`: nothing beyond the ruleset and the size."""
    return ""
