"""Comparing names as people write them: case and accents ignored, scripts kept apart
(docs/rules: names). A leaf of the engine, so the contract's errors and the name rules
share it without importing each other."""

from __future__ import annotations

import functools
import unicodedata


@functools.lru_cache(maxsize=4096)  # the same few names are folded for every order line judged
def fold(text: str) -> str:
    """`text` with case and accents ignored, each letter kept in its own script:
    `José` and `JOSE` fold alike, a Cyrillic `Иван` and a Latin `Ivan` do not."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
