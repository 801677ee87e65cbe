"""The Vampire, an extra role from outside the engine (docs/design.md: Extensibility): loaded
by file path, passed to make_ruleset(extra_roles=...), and played like a built-in role."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from engine.core import PlayerSpec
from engine.simulation import play_game
from engine.werewolf import make_ruleset
from engine.werewolf.characters import faction_of
from tests.werewolf.werewolf_helpers import alive, game, night, private_event, step, to_night

VAMPIRE_FILE = Path(__file__).resolve().parents[2] / "examples" / "roles" / "vampire.py"


def load_vampire():
    spec = importlib.util.spec_from_file_location("host_roles_vampire", VAMPIRE_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


VAMPIRE = load_vampire()
RULES = make_ruleset(extra_roles=VAMPIRE.ROLES)
LINEUP = "werewolf,werewolf,vampire,seer,witch,bodyguard,villager,villager,wench,villager"


def test_engine_never_imports_the_vampire():
    """Extensibility: the engine itself never imports a role from outside by name."""
    for path in (Path(__file__).resolve().parents[2] / "engine").rglob("*.py"):
        assert "vampire" not in path.read_text().lower(), path


def test_seeded_games_with_a_vampire_finish_and_replay():
    """Extensibility: a game's options use the extra role like a built-in one."""
    outcomes = []
    for seed in range(12):
        state = play_game(RULES, 10, f"v{seed}", {"roles": LINEUP})
        assert RULES.result(state) is not None
        assert "vampire" in state.setup
        outcomes.append(RULES.result(state).winners[0])
        again = play_game(RULES, 10, f"v{seed}", {"roles": LINEUP})
        assert RULES.to_json(again) == RULES.to_json(state)
    assert "vampires" in outcomes


def test_c101_drain_turns_a_villager_into_a_thrall():
    """Vampire (examples/roles/vampire.py): a drained villager-faction player becomes a
    Vampire at dawn; thrall and Vampires learn each other."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "vampire",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            },
            rules=RULES,
        ),
        rules=RULES,
    )
    assert [spec.keyword for spec in RULES.phase(state).grammar["Bruno"]] == ["DRAIN"]
    dawn = night(state, {"Bruno": "drain: chloe"}, rules=RULES)
    assert dawn.state.character("Chloe").role == "vampire"
    assert faction_of(dawn.state.character("Chloe"), RULES.table.by_name) == "vampires"
    assert private_event(dawn, "Chloe", "team").data == {"team": "vampires", "members": ["Bruno"]}
    assert private_event(dawn, "Bruno", "newcomer").data == {"team": "vampires", "player": "Chloe"}


def test_c102_drain_kills_anyone_else():
    """Vampire: a drained wolf dies at dawn (cause vampire)."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "vampire",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "werewolf",
            },
            rules=RULES,
        ),
        rules=RULES,
    )
    dawn = night(state, {"Bruno": "DRAIN Alice"}, rules=RULES)
    assert not alive(dawn.state, "Alice") and dawn.state.character("Alice").death_cause == "vampire"


def test_c103_vampires_win_at_half_the_living():
    """Vampire, victory: at least one alive and at least half of the living players;
    checked after the Weregerbils and before the Villagers."""
    state = to_night(
        game(
            {"Alice": "werewolf", "Bruno": "vampire", "Chloe": "villager", "Dmitri": "villager"},
            rules=RULES,
        ),
        rules=RULES,
    )
    end = night(state, {"Bruno": "DRAIN Chloe", "Alice": "KILL Dmitri"}, rules=RULES)
    assert RULES.result(end.state).winners == ("vampires",)
    assert RULES.result(end.state).path == "vampires-half"


def test_c104_villagers_must_remove_the_vampires_too():
    """Vampire: while a Vampire lives, the Villagers do not win by killing the wolves."""
    state = step(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "vampire",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            },
            rules=RULES,
        ),
        rules=RULES,
    ).state
    state = step(state, {"Chloe": "NOMINATE Alice"}, rules=RULES).state
    after = step(state, {"Chloe": "VOTE Alice", "Dmitri": "VOTE Alice"}, rules=RULES)
    assert not alive(after.state, "Alice") and after.state.result is None


def test_c105_wench_visiting_a_vampire_becomes_a_hybrid():
    """Wench (source): a Wench who sleeps with a vampire contracts the disease."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "vampire",
                "Chloe": "wench",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            },
            rules=RULES,
        ),
        rules=RULES,
    )
    dawn = night(state, {"Chloe": "VISIT Bruno"}, rules=RULES)
    chloe = dawn.state.character("Chloe")
    assert chloe.role == "wench" and faction_of(chloe, RULES.table.by_name) == "vampires"


def test_c106_setup_names_the_vampire_only_with_the_extra_role():
    """Extensibility: without the extra role, `vampire` is not a role of the game."""
    import pytest
    from engine.core import GameSetupError

    with pytest.raises(GameSetupError, match="not a role of this game"):
        make_ruleset().new_game([PlayerSpec(f"P{i}") for i in range(10)], "s", {"roles": LINEUP})
