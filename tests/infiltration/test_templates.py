"""Every event kind the engine emits (public and private) has plain-English words in
templates/infiltration/events.j2, and status.j2 renders any player's view, under
StrictUndefined."""

from __future__ import annotations

from engine.core import PlayerSpec
from engine.infiltration.events import EVENT_KINDS
from engine.seat_names import player_names

from tests.infiltration.scenario import RULES
from pbp.render.renderer import Renderer

ALL_KINDS = set(EVENT_KINDS)


def environment():
    """The templates as pbp renders them (with its globals, e.g. `phase_words`)."""
    return Renderer().env


def play(seed):
    """One real game (10 players and an NPC); the first one also sees a host kill."""
    events, states = [], []
    specs = [PlayerSpec(n) for n in player_names(10)] + [
        PlayerSpec("Engie", npc=True, npc_class="engineer", npc_team="neutral")
    ]
    state = RULES.new_game(specs, seed, {"alert_scope": "floor", "phantom_votes": "on"})
    while RULES.phase(state):
        orders = {
            a: RULES.parse_orders(state, a, RULES.scripted_orders(state, a, seed).splitlines())
            for a in RULES.phase(state).actors
        }
        resolution = RULES.resolve(state, orders)
        events += list(resolution.public) + [e for evs in resolution.private.values() for e in evs]
        state = resolution.state
        states.append(state)
        if state.turn == 2 and state.step == "movement" and seed == "t0":
            kill = RULES.host_kill(state, state.living_players()[0].name, "did not send orders")
            events += list(kill.public)
            state = kill.state
    return events, states


def collect_events(limit=60):
    """Real games, seed after seed, until every event kind and every terminal has shown up
    (gas deaths are rare, so this may take a few games)."""
    events, states = [], []
    for index in range(limit):
        more, seen = play(f"t{index}")
        events += more
        states += seen
        terminals = {e.data["terminal"] for e in events if e.kind == "terminal"}
        if {e.kind for e in events} >= ALL_KINDS and len(terminals) == 13:
            break
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
