"""The names a simulated table seats (`pbp simulate`, the demo, the trial games that check
a new game's setup): distinct, and safe in either ruleset's grammar."""

from __future__ import annotations

# Distinct, grammar-safe names (no room, floor letter or keyword of either ruleset).
_NAMES = (
    "Alice",
    "Bruno",
    "Chloe",
    "Dmitri",
    "Elena",
    "Farid",
    "Greta",
    "Hiro",
    "Ingrid",
    "Jonas",
    "Kemal",
    "Lucia",
    "Mateo",
    "Nadia",
    "Oskar",
    "Priya",
    "Quinn",
    "Rosa",
    "Soren",
    "Tariq",
    "Ursula",
    "Viktor",
    "Wanda",
    "Ximena",
    "Yusuf",
    "Zora",
)


def player_names(count: int) -> list[str]:
    """`count` distinct names: the list above, then numbered ones (`Alice2` …)."""
    names: list[str] = []
    round_number = 1
    while len(names) < count:
        suffix = "" if round_number == 1 else str(round_number)
        names.extend(f"{name}{suffix}" for name in _NAMES)
        round_number += 1
    return names[:count]
