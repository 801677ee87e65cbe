"""Counting named targets: the shared choices of wolves and Weregerbils, nominations."""

from __future__ import annotations

from collections import Counter
from typing import Iterable


def most_named(names: Iterable[str | None]) -> tuple[str, ...]:
    """The names given most often (several when tied), in a stable (sorted) order."""
    counts = Counter(name for name in names if name)
    if not counts:
        return ()
    top = max(counts.values())
    return tuple(sorted(name for name, count in counts.items() if count == top))
