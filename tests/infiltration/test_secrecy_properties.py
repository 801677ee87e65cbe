"""Secrecy proofs, property-based (docs/design.md: One gate): twin games that
differ in one hidden fact, driven by scripted players with random host kills in every
kind of phase (see `twins.py`).

- Indistinguishability: every view and every private event of a player P who must not
  know the fact is byte-identical across the twins, phase after phase, for as long as the
  twins' states and public records differ in nothing but the fact; where a listed rule
  tells P the fact (the Seer or Psychic about a team, a hacked terminal P uses, the code
  in the General's Room or asked of the Validity check) the difference is confined to what
  that rule gives.
- Public-view leak oracle: while the public records of the twins are the same, so are
  their public views (until the game's end, when the role list is made public).

CI runs a few hundred games; `scripts/secrecy infiltration` runs 1,000 (SECRECY_PROFILE=full).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

from engine.infiltration.state import RED

from tests.infiltration.twins import (
    NPC_CLASSES,
    NPC_NAMES,
    NPC_TEAMS,
    PLAYER_CLASS_NAMES,
    Fact,
    Game,
    build_twins,
    play_twins,
)

FULL = os.environ.get("SECRECY_PROFILE") == "full"
GAMES = 1000 if FULL else 380  # spread over the fact kinds below

PLAYER_CLASS_PAIRS = [(a, b) for a in PLAYER_CLASS_NAMES for b in PLAYER_CLASS_NAMES if a < b]
NPC_CLASS_PAIRS = [(a, b) for a in NPC_CLASSES for b in NPC_CLASSES if a < b]
NPC_TEAM_PAIRS = [(a, b) for a in NPC_TEAMS for b in NPC_TEAMS if a < b]
FACTS = (
    [("class", pair) for pair in PLAYER_CLASS_PAIRS]
    + [("npc-class", pair) for pair in NPC_CLASS_PAIRS]
    + [("npc-team", pair) for pair in NPC_TEAM_PAIRS]
    + [("team", None), ("hacked", None), ("code", None)]
)
FACT_IDS = [f"{kind}:{'-'.join(pair)}" if pair else kind for kind, pair in FACTS]


def proof_settings(runs: int):
    # Derandomized: CI draws the same games every time, so a failure always replays.
    return settings(
        max_examples=max(1, GAMES // runs),
        deadline=None,
        derandomize=not FULL,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@st.composite
def games(draw, npcs_needed: int = 0):
    npcs = draw(
        st.lists(
            st.tuples(st.sampled_from(NPC_CLASSES), st.sampled_from(NPC_TEAMS)),
            min_size=npcs_needed,
            max_size=max(npcs_needed, 2),
        )
    )
    return Game(
        players=draw(st.integers(5, 10)),
        npcs=tuple(npcs),
        seed=str(draw(st.integers(0, 10**6))),
        options={
            "turn_limit": draw(st.integers(2, 6)),
            "alert_scope": draw(st.sampled_from(["facility", "floor"])),
            "default_class": draw(st.sampled_from(["warrior", "hacker", "sneaker"])),
        },
        # A host kill before the step of that index: class (0), movement (odd), decision (even).
        kills=draw(st.dictionaries(st.integers(0, 12), st.integers(0, 1000), max_size=3)),
        gather=draw(
            st.dictionaries(
                st.integers(1, 12), st.tuples(st.integers(0, 7), st.integers(0, 2**12)), max_size=4
            )
        ),
        brawl=draw(st.dictionaries(st.integers(2, 12), st.integers(0, 2**12), max_size=3)),
    )


def draw_fact(data, game: Game, kind: str, pair) -> Fact:
    first, _ = build_twins(game, Fact("none", ()))
    players = [c for c in first.characters.values() if not c.npc]
    if kind == "class":
        holder = data.draw(st.sampled_from(sorted(c.name for c in players if c.team != RED)))
        a, b = data.draw(st.permutations(pair))
        return Fact(kind, (holder,), a, b)
    if kind in ("npc-class", "npc-team"):
        index = data.draw(st.integers(0, len(game.npcs) - 1))
        slot = 0 if kind == "npc-class" else 1
        current = game.npcs[index][slot]
        other = pair[1] if current == pair[0] else pair[0]
        return Fact(kind, (NPC_NAMES[index],), current, other)
    if kind == "team":
        red = data.draw(st.sampled_from(sorted(c.name for c in players if c.team == RED)))
        green = data.draw(st.sampled_from(sorted(c.name for c in players if c.team != RED)))
        return Fact(kind, (red, green))
    if kind == "hacked":
        room = data.draw(
            st.sampled_from(sorted(r for r, slot in first.layout.items() if slot.is_terminal))
        )
        return Fact(kind, (), room, first.layout[room].tid)  # the terminal travels with a Switch
    code = data.draw(
        st.integers(0, 9999).map(lambda n: f"{n:04d}").filter(lambda c: c != first.code)
    )
    return Fact(kind, (), first.code, code)


def observers(game: Game, fact: Fact) -> list[str]:
    """The players who must not know the fact: not its holders; for a team, no Red (Reds
    know Reds, NPCs included)."""
    first, second = build_twins(game, fact)
    reds = {c.name for state in (first, second) for c in state.characters.values() if c.team == RED}
    knows_teams = fact.kind == "team" or (
        fact.kind == "npc-team" and RED in (fact.first, fact.second)
    )
    return [
        c.name
        for c in first.characters.values()
        if not c.npc and c.name not in fact.holders and not (knows_teams and c.name in reds)
    ]


def revealed_by_rule(fact: Fact, step, observer: str, event: dict) -> bool:
    """Whether this private event is a listed rule telling the observer the fact."""
    data = event["data"]
    if event["kind"] == "terminal":
        terminal = data["terminal"]
        if (
            fact.kind in ("team", "npc-team")
            and terminal == "SEER"
            and data["target"] in fact.holders
        ):
            return True
        if fact.kind == "team" and terminal == "PSYCHIC":
            return True  # once a holder is dead, the count of living Reds tells their team
        if (
            fact.kind == "hacked"
            and step.before[0].layout[step.before[0].characters[observer].room].tid == fact.second
        ):
            return True  # the observer used the hacked terminal: a different answer
        if fact.kind in ("hacked", "code") and terminal == "VALIDITY":
            return True  # TERMINAL IN … IS HACKED, CODE IS …
    if fact.kind == "code" and event["kind"] == "arrival" and data.get("code"):
        return True  # the General's Room teaches the code
    return False


def without_revealed_fields(fact: Fact, event: dict) -> dict:
    """The event without the part a listed rule lets depend on the fact: a combat report
    names who killed each victim, which shows in which tier (so at which priority) a
    character attacked (and the death notice repeats them)."""
    if fact.kind in ("class", "npc-class") and event["kind"] in ("combat", "you_died"):
        return {**event, "data": {**event["data"], "killers": None}}
    return event


def without_revealed_view_fields(fact: Fact, view: dict) -> dict:
    view = {**view, "me": dict(view["me"])}
    if fact.kind == "code":
        view["me"]["code"] = None
    return view


@pytest.mark.parametrize("kind,pair", FACTS, ids=FACT_IDS)
def test_secrecy_no_view_or_report_tells_a_player_a_hidden_fact(kind, pair):
    """Indistinguishability, for each kind of hidden fact and every class or team pair."""
    npcs_needed = 1 if kind.startswith("npc") else 0

    @proof_settings(len(FACTS))
    @given(game=games(npcs_needed), data=st.data())
    def check(game, data):
        fact = draw_fact(data, game, kind, pair)
        watching = set(observers(game, fact))
        for step in play_twins(game, fact):
            if step.consequence or not step.public_same:
                event(f"twins diverge by the rules at step {step.index}")
                return
            over = "over" in (step.after[0].step, step.after[1].step)
            for name in sorted(watching):
                events = step.private(0, name), step.private(1, name)
                views = step.view(0, name), step.view(1, name)
                if over:  # the end publishes every team and class: the role list alone may differ
                    views = _strip_roles(views[0]), _strip_roles(views[1])
                if events[0] == events[1] and views[0] == views[1]:
                    continue
                kept = [
                    [
                        without_revealed_fields(fact, e)
                        for e in evs
                        if not revealed_by_rule(fact, step, name, e)
                    ]
                    for evs in events
                ]
                assert kept[0] == kept[1], (step.label, name, fact, events)
                assert without_revealed_view_fields(fact, views[0]) == without_revealed_view_fields(
                    fact, views[1]
                ), (step.label, name, fact)
                event(f"{fact.kind} revealed by a listed rule")
                watching.discard(name)  # from here on the observer knows the fact
            # The listed rules do reveal: an observer whose reports stayed the same was not
            # taught the code in the General's Room.
            for name in watching if fact.kind == "code" else ():
                assert not any(
                    e["kind"] == "arrival" and e["data"].get("code") for e in step.private(0, name)
                )

    check()


def _strip_roles(view: dict) -> dict:
    return {
        **view,
        "players": [
            {k: v for k, v in p.items() if k not in ("team", "class")} for p in view["players"]
        ],
    }


@pytest.mark.parametrize("kind,pair", FACTS, ids=FACT_IDS)
def test_secrecy_the_public_view_is_a_function_of_the_public_record(kind, pair):
    """Public-view leak oracle: while the twins' public records are the same, their public
    views are byte-identical; at the game's end only the published role list differs."""
    npcs_needed = 1 if kind.startswith("npc") else 0

    @proof_settings(len(FACTS))
    @given(game=games(npcs_needed), data=st.data())
    def check(game, data):
        fact = draw_fact(data, game, kind, pair)
        for step in _public_steps(game, fact):
            if not step.public_same:
                return
            views = step.view(0, None), step.view(1, None)
            if step.after[0].step == "over" or step.after[1].step == "over":
                assert _strip_roles(views[0]) == _strip_roles(views[1]), step.label
                return
            assert views[0] == views[1], (step.label, fact)

    check()


def _public_steps(game: Game, fact: Fact):
    """Every step of the twins, past the point where their hidden states part: the public
    oracle holds the public record fixed, not the state."""
    return play_twins(game, fact, hold_state=False)
