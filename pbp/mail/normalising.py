"""Text normalisation before order parsing (docs/design.md: Order mail format — "Text is
normalised before parsing: smart quotes, non-breaking spaces, trailing spaces, \\r\\n")."""

from __future__ import annotations

import re
import unicodedata

_QUOTES = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": "'",
    "\u201b": "'",
    "\u2032": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u201f": '"',
    "\u2033": '"',
    "\u00ab": '"',
    "\u00bb": '"',
}
# Word processors and phones turn "-" into look-alikes; phase ids and names use "-".
_DASHES = {c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2212"}
_INVISIBLE = {c: None for c in "\u200b\u200c\u200d\u2060\ufeff\u00ad"}
_TRANSLATION = str.maketrans({**_QUOTES, **_DASHES, **_INVISIBLE})
_TRAILING_SPACE = re.compile(r"[ \t]+$", re.MULTILINE)


def _unicode_spaces_to_space(text: str) -> str:
    """Non-breaking and other Unicode spaces (category Zs) become a plain space."""
    return "".join(" " if ch != " " and unicodedata.category(ch) == "Zs" else ch for ch in text)


def normalise_text(text: str) -> str:
    """The text a player meant: ASCII quotes and hyphens, plain spaces, no zero-width
    characters, `\\n` line ends, no trailing spaces."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.isascii():  # ASCII holds no look-alike, odd space or invisible character
        text = unicodedata.normalize("NFC", text).translate(_TRANSLATION)
        text = _unicode_spaces_to_space(text)
    return _TRAILING_SPACE.sub("", text)
