"""Every event kind the engine emits (public and private) has plain-English words in
templates/infiltration/events.j2, and status.j2 renders any player's view, under
StrictUndefined."""
from __future__ import annotations

from pathlib import Path

import jinja2

from engine.core import PlayerSpec
from engine.simulation import player_names

from infiltration.scenario import RULES

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
ALL_KINDS = {"game-start", "alert", "votes", "lynch", "deaths", "anonymous-message", "result", "host-kill",
             "role", "arrival", "red-occupancy", "combat", "gassed", "tamper", "terminal"}


def environment():
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined)


def collect_events(seeds=("t1", "t14")):
    events, states = [], []
    for seed in seeds:
        specs = [PlayerSpec(n) for n in player_names(10)] + [
            PlayerSpec("Engie", npc=True, npc_class="engineer", npc_team="neutral")]
        state = RULES.new_game(specs, seed, {"alert_scope": "floor", "phantom_votes": "on"})
        while RULES.phase(state):
            orders = {a: RULES.parse_orders(state, a, RULES.scripted_orders(state, a, seed).splitlines())
                      for a in RULES.phase(state).actors}
            resolution = RULES.resolve(state, orders)
            events += list(resolution.public) + [e for evs in resolution.private.values() for e in evs]
            state = resolution.state
            states.append(state)
            if state.turn == 3 and state.step == "movement" and seed == "t1":
                living = [c.name for c in state.living_players()]
                kill = RULES.host_kill(state, living[0], "did not send orders")
                events += list(kill.public)
                state = kill.state
    return events, states


def test_every_event_kind_is_described_and_every_view_renders():
    events, states = collect_events()
    kinds = {e.kind for e in events}
    assert kinds == ALL_KINDS
    terminals = {e.data["terminal"] for e in events if e.kind == "terminal"}
    assert len(terminals) == 13
    env = environment()
    describe = env.get_template("infiltration/events.j2").module.describe
    for event in events:
        text = str(describe(event)).strip()
        assert text and text != event.kind, event
    status = env.get_template("infiltration/status.j2").module.status
    for state in states[::5] + states[-1:]:
        for name in state.characters:
            text = str(status(RULES.view(state, name)))
            assert name in text
