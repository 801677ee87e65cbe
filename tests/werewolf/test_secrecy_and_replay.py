"""The view is the only gate (docs/design.md: One gate): changing one hidden fact leaves every other view
unchanged; and replays are byte-identical, also in another process."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import engine
from engine.core import PlayerSpec, canonical_json
from engine.seat_names import player_names
from engine.simulation import play_game, play_games, play_table, summarize
from engine.werewolf.characters import Character
from engine.werewolf.teams import introduce
from tests.werewolf.werewolf_helpers import RULES, game, step, to_night

ROOT = Path(__file__).resolve().parents[2]
LINEUP = {
    "Alice": "werewolf",
    "Bruno": "werewolf",
    "Chloe": "seer",
    "Dmitri": "witch",
    "Elena": "bodyguard",
    "Farid": "villager",
    "Greta": "apothecary",
    "Hiro": "wench",
    "Ingrid": "villager",
    "Jonas": "weregerbil",
}


def swapped(state, one: str, other: str):
    roles = {c.name: c.role for c in state.characters}
    roles[one], roles[other] = roles[other], roles[one]
    return replace(
        state,
        characters=introduce(
            tuple(
                Character(
                    name=c.name,
                    role=roles[c.name],
                    role_state=RULES.table.by_name[roles[c.name]].initial_state,
                )
                for c in state.characters
            ),
            RULES.table,
        ),
    )


def visible(state, except_for: set[str]) -> str:
    """Everything the public and every other player can see now, including their forms."""
    phase = RULES.phase(state)
    seen = {"public": RULES.view(state, None)}
    for c in state.characters:
        if c.name not in except_for:
            seen[c.name] = RULES.view(state, c.name)
            seen[c.name + "/form"] = [
                repr(spec) for spec in (phase.grammar.get(c.name, ()) if phase else ())
            ]
    if phase:
        seen["phase"] = [phase.id, phase.kind, list(phase.actors), phase.secret_actors]
    return canonical_json(seen)


def scripted_log(state, seed, phases=40):
    """Play with scripted players; the order log is (phase id, player, text) per phase."""
    log = []
    for _ in range(phases):
        phase = RULES.phase(state)
        if phase is None:
            break
        texts = {a: RULES.scripted_orders(state, a, seed) for a in phase.actors}
        log.append(texts)
        state = step(state, texts).state
    return log


def test_swapping_two_roles_changes_no_other_view():
    """A Villager and the Apothecary swap roles: over a whole game played from the same
    orders, the public view and every other player's view and form stay identical."""
    original = game(LINEUP, seed="secret")
    other = swapped(original, "Farid", "Greta")
    log = scripted_log(original, "secret")
    assert len(log) > 6
    hidden = {"Farid", "Greta"}
    for texts in log:
        assert visible(original, hidden) == visible(other, hidden)
        original, other = step(original, texts).state, step(other, texts).state
    # The end of the game reveals every role (rules: game over); apart from that, nothing.
    assert original.result is not None
    assert without_final_roles(visible(original, hidden)) == without_final_roles(
        visible(other, hidden)
    )
    assert visible(original, hidden) != visible(other, hidden)


def without_final_roles(text: str) -> str:
    seen = json.loads(text)
    for view in seen.values():
        if isinstance(view, dict) and "log" in view:
            for entry in view["log"]:
                entry["data"].pop("roles", None)
            for player in view["players"]:
                player.pop("role", None)
    return canonical_json(seen)


def test_a_night_action_changes_only_its_actor_view():
    """The Bodyguard protects Farid or Hiro while the wolves kill Ingrid: nobody but the
    Bodyguard can tell which, before or after dawn."""
    state = to_night(game(LINEUP))
    common = {
        "Alice": "KILL Ingrid",
        "Bruno": "KILL Ingrid",
        "Hiro": "VISIT Chloe",
        "Chloe": "SEE Jonas",
    }
    one = step(state, {**common, "Elena": "PROTECT Farid"})
    two = step(state, {**common, "Elena": "PROTECT Hiro"})
    assert one.private == two.private and one.public == two.public
    assert visible(one.state, {"Elena"}) == visible(two.state, {"Elena"})
    dawn_one, dawn_two = step(one.state), step(two.state)
    assert dawn_one.public == dawn_two.public
    assert visible(dawn_one.state, {"Elena"}) == visible(dawn_two.state, {"Elena"})


def test_the_ninjas_kill_is_hidden_until_dawn():
    """Night: all effects are announced at dawn; in Nn-witch the Ninja's victim still looks
    alive to everyone, and the Witch may still POISON them."""
    roles = {
        "Alice": "werewolf",
        "Bruno": "witch",
        "Chloe": "ninja",
        "Dmitri": "villager",
        "Elena": "villager",
        "Farid": "villager",
    }
    state = to_night(game(roles))
    struck = step(state, {"Chloe": "STRIKE Dmitri"}).state
    quiet = step(state, {}).state
    assert visible(struck, {"Chloe"}) == visible(quiet, {"Chloe"})
    assert [str(o) for o in RULES.parse_orders(struck, "Bruno", ["POISON Dmitri"])] == [
        "POISON Dmitri"
    ]


def replay(log, seed):
    state = RULES.new_game([PlayerSpec(n) for n in player_names(12)], seed, {})
    for texts in log:
        state = step(state, texts).state
    return state


def test_replay_is_byte_identical_and_survives_json():
    """Design: chance draws come from (seed, phase id), so replaying the order log
    reproduces the game; the state round-trips through JSON at every phase."""
    start = RULES.new_game([PlayerSpec(n) for n in player_names(12)], "replay", {})
    log, state = [], start
    while RULES.phase(state):
        phase = RULES.phase(state)
        texts = {a: RULES.scripted_orders(state, a, "replay") for a in phase.actors}
        log.append(texts)
        restored = RULES.from_json(json.loads(json.dumps(RULES.to_json(state))))
        assert canonical_json(RULES.to_json(restored)) == canonical_json(RULES.to_json(state))
        state = step(restored, texts).state
    final = canonical_json(RULES.to_json(state))
    assert canonical_json(RULES.to_json(replay(log, "replay"))) == final
    table = play_table(
        RULES, 12, "replay"
    )  # players with memory and a thread: their log replays too
    assert canonical_json(RULES.to_json(replay(table.log, "replay"))) == canonical_json(
        RULES.to_json(table.state)
    )


def test_replay_in_another_process_with_another_hash_seed():
    script = (
        "import hashlib, engine; from engine.core import canonical_json; "
        "from engine.simulation import play_game; r = engine.ruleset('werewolf'); "
        "print(hashlib.sha256(canonical_json(r.to_json(play_game(r, 15, 'hash'))).encode()).hexdigest())"
    )
    here = hashlib.sha256(
        canonical_json(RULES.to_json(play_game(RULES, 15, "hash"))).encode()
    ).hexdigest()
    for hash_seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == here


def test_small_simulation():
    """30 scripted games at 8 and at 12 players all finish, with plausible statistics."""
    rules = engine.ruleset("werewolf")
    for players in (8, 12):
        summary = summarize(play_games(rules, players, 30, "sim"))
        assert summary["games"] == 30 and "unfinished" not in summary["wins_by_path"]
        assert sum(summary["wins_by_team"].values()) == 30
        assert (
            summary["deaths_by_cause"].get("lynch", 0) > 0
            and summary["deaths_by_cause"].get("wolves", 0) > 0
        )
        assert summary["actions_used"]["nominate"] > 0 and summary["mean_turns"] >= 1
