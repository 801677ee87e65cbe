"""The two rulesets follow one set of conventions (docs/design.md: Engine contract): each declares
its event vocabulary in `events.py`, every event kind is snake_case, host actions fail with
the contract's `HostActionError`, and the state's JSON lives in `codec.py`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import engine
from engine.core import HostActionError, PlayerSpec
from engine.infiltration import events as infiltration_events
from engine.seat_names import player_names
from engine.werewolf import events as werewolf_events

ENGINE = Path(__file__).resolve().parents[2] / "engine"
VOCABULARIES = {"infiltration": infiltration_events, "werewolf": werewolf_events}
SNAKE_CASE = re.compile(r"[a-z]+(_[a-z]+)*")


def emitted_kinds(package: str) -> set[str]:
    """Every event kind written out in a ruleset's code: `Event("kind", …)` and Werewolf's
    `night.report(player, "kind", …)`."""
    kinds = set()
    for path in (ENGINE / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = (
                node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            )
            position = {"Event": 0, "report": 1}.get(name)
            if position is None or len(node.args) <= position:
                continue
            kind = node.args[position]
            if isinstance(kind, ast.Constant) and isinstance(kind.value, str):
                kinds.add(kind.value)
    return kinds


@pytest.mark.parametrize("ruleset", sorted(VOCABULARIES))
def test_every_emitted_event_kind_is_declared_in_the_rulesets_vocabulary(ruleset):
    vocabulary = VOCABULARIES[ruleset]
    emitted = emitted_kinds(ruleset)
    assert emitted, "the scan found no events: it no longer matches the code"
    assert emitted <= set(vocabulary.EVENT_KINDS), emitted - set(vocabulary.EVENT_KINDS)
    assert set(vocabulary.EVENT_KINDS) == set(vocabulary.PUBLIC_EVENT_KINDS) | set(
        vocabulary.PRIVATE_EVENT_KINDS
    )


@pytest.mark.parametrize("ruleset", sorted(VOCABULARIES))
def test_every_event_kind_is_snake_case(ruleset):
    assert [
        kind for kind in VOCABULARIES[ruleset].EVENT_KINDS if not SNAKE_CASE.fullmatch(kind)
    ] == []


@pytest.mark.parametrize("ruleset", sorted(VOCABULARIES))
def test_both_rulesets_keep_their_state_json_in_a_codec_module(ruleset):
    assert (ENGINE / ruleset / "codec.py").is_file()


@pytest.mark.parametrize("ruleset,players", [("infiltration", 8), ("werewolf", 9)])
def test_a_refused_host_kill_is_a_host_action_error_in_both_rulesets(ruleset, players):
    rules = engine.ruleset(ruleset)
    state = rules.new_game([PlayerSpec(name) for name in player_names(players)], "alike", {})
    with pytest.raises(HostActionError):
        rules.host_kill(state, "Nobody-by-that-name", "testing")
    victim = player_names(players)[0]
    state = rules.host_kill(state, victim, "left the game").state
    with pytest.raises(HostActionError):
        rules.host_kill(state, victim, "again")
