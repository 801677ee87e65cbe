"""Digests of each ruleset's rules, keyed by the rules version on its card (docs/design.md:
Releases and upgrades): the canonical start state of a seeded game and the final state of
a seeded game played to its end by scripted players (its whole history: every phase's
events are in it). `tests/upgrades/test_rules_versions.py` fails when they change while the
version stays; after bumping `rules_version` on the card, record the new version's with

    python3 -m tests.upgrades.rules_digests --record
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import engine
from engine.core import PlayerSpec, canonical_json
from engine.seat_names import player_names
from engine.simulation import play_table

RECORDED = Path(__file__).parent / "rules_digests.json"
SEED = "rules-version"


def digests(ruleset: str) -> dict[str, str]:
    rules = engine.ruleset(ruleset)
    players = rules.card.demo_players
    start = rules.to_json(
        rules.new_game([PlayerSpec(name) for name in player_names(players)], SEED, {})
    )
    final = rules.to_json(play_table(rules, players, SEED).state)
    return {"start": _digest(start), "history": _digest(final)}


def _digest(value: object) -> str:
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def recorded() -> dict[str, dict[str, dict[str, str]]]:
    loaded: dict[str, dict[str, dict[str, str]]] = json.loads(RECORDED.read_text(encoding="utf-8"))
    return loaded


def record() -> None:
    """Add each ruleset's digests under its current rules version (older versions stay)."""
    table = recorded() if RECORDED.exists() else {}
    for ruleset in engine.rulesets():
        table.setdefault(ruleset, {})[str(engine.ruleset(ruleset).card.rules_version)] = digests(
            ruleset
        )
    RECORDED.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python3 -m tests.upgrades.rules_digests --record")
    record()
