"""The sentences a ruleset's card shows players, in the reader's language (docs/design.md:
No English left): role summaries, the order table's who and what, the forms' hints and
slots, and the clock's words for a deadline it cannot name. The engine writes them in
English; the catalog domain `cards` holds each under the context `card`, made from every
card by `scripts/catalogs extract`, so that a language is complete only when every card
sentence is translated."""

from __future__ import annotations

import gettext
from typing import Iterable

from engine.core import RulesetCard

CONTEXT = "card"
# What a form adds to the hint of an order that names several players (pbp.render.forms).
SEVERAL = "; several: separate the names with commas"
SEVERAL_ALONE = SEVERAL.lstrip("; ")
# A deadline the clock cannot name yet, as a form and a notice say it (pbp.game.clock).
PAUSED_DEADLINE = "none while the game is paused by the host"
UNSET_DEADLINE = "set when the host publishes the thread post"
# The slots of an order line a form leaves to fill in (`VOTE <player>`), each worded as a
# word of the reader's language (`<Spieler>`); the keyword is worded apart.
SLOTS = (
    "<player>",
    "<room>",
    "<order>",
    "<choice>",
    "<class>",
    "<defendant>",
    "<floor>",
    "<statement>",
    "<terminal>",
    "<text>",
    "<number>",
    "<name>",
    "<role>",
    "<four digits>",
)


def card_texts(card: RulesetCard) -> list[str]:
    """Every sentence of `card` a player reads, once each, in the card's order."""
    found = [part for line in card.orders for part in (line.who, line.note, line.hint)]
    found += [summary for _, _, summary in card.roles]
    found += list(card.texts)
    return list(dict.fromkeys(text for text in found if text.strip()))


def every_card_text(cards: Iterable[RulesetCard]) -> list[str]:
    """The sentences of every card, and the words the shell adds to a form's hint and lines."""
    return list(
        dict.fromkeys(
            [text for card in cards for text in card_texts(card)]
            + [SEVERAL, SEVERAL_ALONE, *SLOTS, PAUSED_DEADLINE, UNSET_DEADLINE]
        )
    )


def card_text(catalog: gettext.NullTranslations, text: str) -> str:
    """`text`, a card's English sentence, as `catalog` words it (itself where it lacks it)."""
    return catalog.pgettext(CONTEXT, text) if text else text


def slotted(catalog: gettext.NullTranslations, line: str) -> str:
    """An order line with each slot (`<player>`) as `catalog` words it."""
    for slot in SLOTS:
        if slot in line:
            line = line.replace(slot, card_text(catalog, slot))
    return line


def hint_text(catalog: gettext.NullTranslations, note: str) -> str:
    """A form's hint: the card's sentence, and the shell's words about several names."""
    if note.endswith(SEVERAL) and note != SEVERAL:
        return card_text(catalog, note[: -len(SEVERAL)]) + card_text(catalog, SEVERAL)
    return card_text(catalog, note)
