"""Text players wrote, made inert on a page: escaped (Jinja's autoescape does that), set
apart from the page's own direction, and with the characters a reader cannot see shown as
what they are (docs/design.md: The host's desk — as safe as the mailbox).

A name with a right-to-left override or a zero-width space would otherwise reorder the
words around it or pass for another name; the host sees `⟨U+202E⟩` instead."""

from __future__ import annotations

import unicodedata

from jinja2 import Environment
from markupsafe import Markup, escape

# Formatting characters (bidi controls, zero-width joiners and spaces, the BOM) are
# category Cf; line and paragraph separators are Zl and Zp.
INVISIBLE_CATEGORIES = {"Cf", "Zl", "Zp", "Cc"}
KEPT_CONTROLS = {"\n", "\t"}


def shown(text: object) -> str:
    """`text` with every invisible or direction-changing character written as ⟨U+XXXX⟩."""
    return "".join(
        (
            f"⟨U+{ord(char):04X}⟩"
            if unicodedata.category(char) in INVISIBLE_CATEGORIES and char not in KEPT_CONTROLS
            else char
        )
        for char in str(text)
    )


def player_text(text: object) -> Markup:
    """What a player wrote, for a page: escaped, invisibles shown, in its own `<bdi>`."""
    return Markup("<bdi>%s</bdi>") % escape(shown(text))


def register_filters(environment: Environment) -> None:
    environment.filters["player_text"] = player_text
