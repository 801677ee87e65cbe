"""A scripted player sees exactly what its player sees (docs/balance.md: What a scripted
player sees), so it never cheats:

- input: in every phase of hypothesis-drawn games of both rulesets, what the table hands a
  player is `rules.view(state, player)`, that player's order form, the public events and
  that player's own private events since it last looked, and the public thread, nothing
  else (a scripted player is built from a name and a skill only);
- twins: two Werewolf games that differ only in a hidden fact (two other players' roles
  swapped) give a player who cannot tell them apart the same input, and so the same posts
  and orders, from a copy of the same scripted player.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.core import phase_rng
from engine.players import Seen
from engine.simulation import Table, with_thread
from engine.werewolf.teams import introduce

RULESETS = {"werewolf": engine.ruleset("werewolf"), "infiltration": engine.ruleset("infiltration")}
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Spy:
    """A scripted player that records every look it is given, then plays as usual."""

    def __init__(self, inner, looks: list):
        self.inner, self.looks = inner, looks

    def talk(self, seen: Seen, rng):
        self.looks.append(("talk", seen))
        return self.inner.talk(seen, rng)

    def orders(self, seen: Seen, rng):
        self.looks.append(("orders", seen))
        return self.inner.orders(seen, rng)


class SpiedRules:
    """The ruleset as the table uses it, recording each resolution and handing out spies."""

    def __init__(self, rules, looks: dict):
        self.rules, self.looks, self.resolutions = rules, looks, []

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def resolve(self, state, orders):
        resolution = self.rules.resolve(state, orders)
        self.resolutions.append(resolution)
        return resolution

    def scripted_player(self, name, skill):
        return Spy(self.rules.scripted_player(name, skill), self.looks.setdefault(name, []))


@FAST
@given(
    ruleset=st.sampled_from(sorted(RULESETS)),
    players=st.integers(8, 13),
    seed=st.text("abc", max_size=4),
    skill=st.sampled_from([0.0, 0.6, 1.0]),
)
def test_a_player_is_handed_its_view_its_form_its_events_and_the_thread(
    ruleset, players, seed, skill
):
    rules = RULESETS[ruleset]
    looks: dict[str, list] = {}
    spied = SpiedRules(rules, looks)
    table = Table(spied, players, seed, {}, skill)
    read_public = dict.fromkeys(table.players, 0)
    unread_mail: dict[str, list] = {name: [] for name in table.players}
    public: list = []
    for _phase in range(24):
        state = table.state
        phase = rules.phase(state)
        if phase is None:
            break
        for name in looks:
            looks[name].clear()
        thread_before = tuple(table.thread)
        table.play_phase(phase)
        for name, seen_list in looks.items():
            for _what, seen in seen_list:
                assert seen.name == name and seen.phase == phase.id
                assert seen.view == rules.view(state, name)
                assert seen.grammar == tuple(phase.grammar[name])
                assert list(seen.news) == public[read_public[name] :]
                assert list(seen.mail) == unread_mail[name]
                assert seen.thread[: len(thread_before)] == thread_before
                assert set(seen.team_coins) == set(rules.status(state, name).channels)
            if seen_list:
                read_public[name] = len(public)
                unread_mail[name] = []
        resolution = spied.resolutions[-1]
        public.extend(resolution.public)
        for name, events in resolution.private.items():
            unread_mail.setdefault(name, []).extend(events)


@FAST
@given(seed=st.text("xyz", max_size=4), phases=st.integers(1, 7), data=st.data())
def test_twins_a_player_cannot_tell_apart_get_the_same_decisions(seed, phases, data):
    rules = RULESETS["werewolf"]
    table = Table(rules, 12, seed, {}, 0.8)
    for _ in range(phases):
        phase = rules.phase(table.state)
        if phase is None:
            return
        table.play_phase(phase)
    phase = rules.phase(table.state)
    if phase is None:
        return
    state = table.state
    names = [c.name for c in state.characters]
    acting = [n for n in state.living if phase.grammar.get(n)]
    if not acting:
        return
    me = data.draw(st.sampled_from(acting))
    others = [n for n in names if n != me]
    first, second = data.draw(
        st.lists(st.sampled_from(others), min_size=2, max_size=2, unique=True)
    )
    roles = {c.name: c.role for c in state.characters}
    swapped = tuple(
        replace(
            c,
            role=roles[second] if c.name == first else roles[first] if c.name == second else c.role,
            known_teams=(),
        )
        for c in state.characters
    )
    twin_state = replace(state, characters=introduce(swapped, rules.table))
    twin_state = replace(
        twin_state,
        characters=tuple(
            replace(c, known_teams=o.known_teams, inbox=o.inbox) if c.name == me else c
            for c, o in zip(twin_state.characters, state.characters)
        ),
    )
    if (
        rules.view(twin_state, me) != rules.view(state, me)
        or rules.status(twin_state, me).channels != rules.status(state, me).channels
    ):
        return  # the swap shows to this player (a teammate, a role they hold): not a twin for them
    twin = copy.copy(table)
    twin.state, twin.read_up_to, twin.mail = (
        twin_state,
        dict(table.read_up_to),
        copy.deepcopy(table.mail),
    )
    coins = {"": 0}
    one, other = table.seen(me, phase, dict(coins)), twin.seen(me, phase, dict(coins))
    assert one == other
    decisions = []
    for seen in (one, other):
        player = copy.deepcopy(table.players[me])
        rng = phase_rng(seed, phase.id, f"player/{me}")
        decisions.append(
            (
                player.talk(with_thread(seen, tuple(table.thread)), rng),
                player.orders(with_thread(seen, tuple(table.thread)), rng),
            )
        )
    assert decisions[0] == decisions[1]
