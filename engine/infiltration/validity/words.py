"""The words of the Validity check grammar (rules: Resolution §3, "Validity check
grammar"): how features and terminals are spelled, the words of allegiance no statement
can use, and the grammar as HELP and every error show it."""

from __future__ import annotations

from engine.errors import Wording
from engine.infiltration.rooms import FEATURES, SPECIALS, TERMINALS


def _alternatives(head: str, words: tuple[str, ...], width: int = 66) -> list[str]:
    """`head := A | B | …` over lines of at most `width` characters, continued under the `:=`."""
    lines, line = [], head
    for index, word in enumerate(words):
        piece = word if index == 0 else f"| {word}"
        if index and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = " " * (head.index(":=") + 1) + piece
        else:
            line = f"{line} {piece}"
    return [*lines, line]


def _grammar_help() -> Wording:
    """The grammar as a player reads it in HELP and in an error: every line fits a mail
    line, with room for a quote (the shell writes no line longer than 72 characters). The
    rules themselves are keywords, never translated; the sentences around them are a
    Wording a reader's language words (docs/design.md: Refusals in every language)."""
    rules = "\n".join(
        [
            "  statement   := disjunction",
            "  disjunction := conjunction ( OR conjunction )*",
            "  conjunction := negation ( AND negation )*",
            "  negation    := NOT negation | ( statement ) | fact",
            "  fact := PLAYER IS IN ROOM          | PLAYER WAS IN ROOM ON TURN N",
            "        | PLAYER IS ALIVE            | PLAYER IS DEAD",
            "        | PLAYER HAS STINGER         | PLAYER VISITED ROOM",
            "        | PLAYER VISITED FEATURE     | PLAYER USED TERMINAL ON TURN N",
            "        | PLAYER ATTACKED (PLAYER | GUARD FLOOR) ON TURN N",
            "        | ROOM HAS FEATURE           | TERMINAL IN ROOM IS HACKED",
            "        | TERMINAL IN ROOM IS DESTROYED",
            "        | GUARD FLOOR IS IN ROOM     | GUARD FLOOR IS DEAD",
            "        | CODE IS DIGITS             | HANGAR DOOR IS OPEN",
            *_alternatives("  TERMINAL :=", TERMINALS),
            *_alternatives("  FEATURE  :=", ("TERMINAL", *SPECIALS)),
        ]
    )
    return Wording(
        "A validity check statement follows this grammar (any letter case):\n"
        "%(rules)s\n"
        "  PLAYER is a player's or character's name, ROOM a room such as\n"
        "  D-4, FLOOR a letter A-H, N a turn number, DIGITS a code such as\n"
        "  0427.\n"
        "Example: Bob WAS IN D-4 ON TURN 2 AND NOT (GUARD C IS DEAD)",
        {"rules": rules},
    )


GRAMMAR_WORDING = _grammar_help()
GRAMMAR_HELP: str = str(GRAMMAR_WORDING)

# Words a player may try in order to ask about allegiance; when a statement that fails to
# parse contains one, the error says why no such question can be asked.
ALLEGIANCE_WORDS = frozenset(
    {
        "RED",
        "REDS",
        "GREEN",
        "GREENS",
        "NEUTRAL",
        "NEUTRALS",
        "TEAM",
        "TEAMS",
        "CLASS",
        "CLASSES",
        "WARRIOR",
        "WARRIORS",
        "HACKER",
        "HACKERS",
        "SNEAKER",
        "SNEAKERS",
        "RENEGADE",
        "RENEGADES",
        "ENGINEER",
        "ENGINEERS",
        "TRAITOR",
        "TRAITORS",
        "PATRIOT",
        "PATRIOTS",
        "FOXHOUND",
        "ROLE",
        "ROLES",
    }
)

# Feature words as token sequences; "GENERAL'S ROOM" (either apostrophe) is accepted too.
FEATURE_SPELLINGS: tuple[tuple[tuple[str, ...], str], ...] = tuple(
    sorted(
        [(tuple(feature.split()), feature) for feature in FEATURES]
        + [(("GENERAL'S", "ROOM"), "GENERALS ROOM"), (("GENERAL’S", "ROOM"), "GENERALS ROOM")],
        key=lambda spelling: -len(spelling[0]),
    )
)
TERMINAL_SPELLINGS = tuple((words, name) for words, name in FEATURE_SPELLINGS if name in TERMINALS)
