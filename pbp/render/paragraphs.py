"""A paragraph laid out for a phone: reflowed to at most 72 columns (docs/design.md:
Languages). A translated sentence is longer or shorter than the English one it replaces,
so a template words a paragraph as one translatable message and lets this filter break
its lines, instead of breaking them by hand in each language."""

from __future__ import annotations

import textwrap

MAIL_WIDTH = 72


def paragraph(text: object, width: int = MAIL_WIDTH, indent: str = "") -> str:
    """`text` with its spaces and line breaks reflowed to lines of at most `width`
    columns, each starting with `indent`; a word longer than a line (an address) is kept
    whole on a line of its own."""
    return textwrap.fill(
        " ".join(str(text).split()),
        width=width,
        initial_indent=indent,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
