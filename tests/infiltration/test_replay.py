"""Replays are byte-identical (rules: Cast and setup, "All chance comes from the game's seed"):
the same seed and order log give the same final state, in this process and in another one
with a different PYTHONHASHSEED."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.core import PlayerSpec, canonical_json
from engine.seat_names import player_names

from tests.infiltration.scenario import RULES

ROOT = Path(__file__).resolve().parents[2]
NPCS = [
    PlayerSpec("Renny", npc=True, npc_class="renegade", npc_team="neutral"),
    PlayerSpec("Engie", npc=True, npc_class="engineer", npc_team="red"),
]


def scripted_log(seed: str, players: int = 12) -> list[dict]:
    """The order log of a scripted game: each phase's order text by actor."""
    state = RULES.new_game([PlayerSpec(n) for n in player_names(players)] + NPCS, seed, {})
    log = []
    while RULES.phase(state):
        orders = {a: RULES.scripted_orders(state, a, seed) for a in RULES.phase(state).actors}
        log.append(orders)
        state = RULES.resolve(
            state, {a: RULES.parse_orders(state, a, t.splitlines()) for a, t in orders.items()}
        ).state
    return log


def replay(seed: str, log: list[dict], players: int = 12) -> str:
    state = RULES.new_game([PlayerSpec(n) for n in player_names(players)] + NPCS, seed, {})
    for orders in log:
        state = RULES.resolve(
            state, {a: RULES.parse_orders(state, a, t.splitlines()) for a, t in orders.items()}
        ).state
        state = RULES.from_json(json.loads(json.dumps(RULES.to_json(state))))  # as storage would
    return canonical_json(RULES.to_json(state))


REPLAY_SCRIPT = """
import json, sys
from tests.infiltration.test_replay import replay
seed, log = json.load(sys.stdin)
sys.stdout.write(replay(seed, log))
"""


def test_replay_is_byte_identical_in_process_and_in_another_process():
    seed = "replay-7"
    log = scripted_log(seed)
    assert len(log) > 3
    first, second = replay(seed, log), replay(seed, log)
    assert first == second
    env = dict(os.environ, PYTHONHASHSEED="12345")
    other = subprocess.run(
        [sys.executable, "-c", REPLAY_SCRIPT],
        input=json.dumps([seed, log]),
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    assert other.stdout == first


def test_state_round_trips_through_json():
    state = RULES.new_game(
        [PlayerSpec(n) for n in player_names(9)] + NPCS, "rt", {"alert_scope": "floor"}
    )
    for _ in range(7):
        if RULES.phase(state) is None:
            break
        orders = {
            a: RULES.parse_orders(state, a, RULES.scripted_orders(state, a, "rt").splitlines())
            for a in RULES.phase(state).actors
        }
        state = RULES.resolve(state, orders).state
        assert RULES.from_json(json.loads(json.dumps(RULES.to_json(state)))) == state
