"""Secrecy proofs for Werewolf (design.md: the view is the only gate; rules/werewolf.md:
"A receipt ... never reveals a hidden fact").

Twin games: hypothesis draws a game (a setup from the rules, options, a seed), plays it
with the simulator's scripted players and random host kills in any phase, and records the
order log. It then builds a twin that differs in one hidden fact and replays the same log:

- a role swap: players X and Y trade roles (any pair of roles the setup holds) and, with
  them, their night orders; by day everyone sends what they sent in the first game;
- an action: one player's night order is replaced by another they could give (a bite, a
  protection, a visit, a vision, the lovers' bond on night 0, a seduction, a kill ...).

Player P is chosen so that the rules do not show P the fact at the start (P is neither
twin and knows neither as a teammate). Then, phase after phase:

- public-view oracle: while the public record (every public event so far) is the same in
  both games, the public view and the public shape of the phase are byte-identical;
- indistinguishability: while the public record is the same, P's view, P's order form,
  the receipt P would get for any order, and P's private events are byte-identical, until a private event that a listed rule sends P
  tells them apart (`REVEALED_BY`); then that rule must apply to P, and the comparison of
  P ends there (P now knows).

Once the public record differs the fact has become public through a rule (a death, a
vote), and the comparison ends. `SECRECY_PROFILE=full` (scripts/secrecy) runs thousands of
games; CI runs a few hundred.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from itertools import zip_longest

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.core import OrderBlockError, PlayerSpec, canonical_json
from engine.seat_names import player_names
from engine.werewolf.characters import Character, faction_of
from engine.werewolf.model import WOLVES
from engine.werewolf.teams import introduce
from pbp.game.standing_orders import standing_orders
from tests.werewolf.werewolf_helpers import RULES

for name, examples in (("ci", 150), ("full", 4000)):
    settings.register_profile(
        f"werewolf-secrecy-{name}",
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
PROFILE = settings.get_profile(f"werewolf-secrecy-{os.environ.get('SECRECY_PROFILE', 'ci')}")

# Every setup the rules list (the 11-player game with each pick), and a host's role list
# holding the roles only such lists bring (Masons, the Rabble Rouser).
CONFIGS = (
    (8, {}),
    (9, {}),
    (10, {}),
    (11, {"setup_11": "romantic"}),
    (11, {"setup_11": "succubus"}),
    (11, {"setup_11": "werehamster"}),
    (12, {}),
    (15, {}),
    (20, {}),
    (
        16,
        {
            "roles": "werewolf,werewolf,howler,seer,witch,bodyguard,wench,romantic,mason,mason,rabble rouser,"
            "apothecary,ninja,succubus,werehamster,weregerbil"
        },
    ),
)
OPTIONS = st.fixed_dictionaries(
    {
        "reveal_roles": st.booleans(),
        "wench_missing": st.sampled_from(["random", "none"]),
        "bodyguard_self": st.sampled_from(["forbidden", "allowed"]),
        "bodyguard_repeat": st.sampled_from(["allowed", "forbidden"]),
        "wolf_tie": st.sampled_from(["no-kill", "random"]),
    }
)
NIGHT_KINDS = ("night0", "night", "witch")
MAX_PHASES = 45


def holds(role):
    return lambda me: me.role == role


def always(me):
    return True


# The private reports a rule sends P that may tell the twins apart, and when it applies:
# `me` is P's character before the phase resolved (in either game).
REVEALED_BY = {
    "vision": holds("seer"),
    "vision_failed": holds("seer"),  # Seer: learns a faction
    "apothecary_report": holds("apothecary"),  # Apothecary: of the lynched
    "witch_told": holds("witch"),  # Witch: the wolves' choice
    "pack_kills": lambda me: faction_of(me, RULES.table.by_name) == WOLVES,  # the pack's KILLs
    "new_role": always,
    "faction_changed": always,
    "team": always,  # every change is told
    "newcomer": always,
    "seduction_wasted": holds("succubus"),
    # Told to the one an action names (in a role swap too: an order the swap turns into
    # a self-targeted one is void, and the rules' default may name someone else).
    "visited": always,
    "silenced": always,
    "seduced": always,
    "lovers": always,
}


@dataclass
class Step:
    """One phase of the order log: an optional host kill at its start, then everyone's text
    (`kind`: the phase kind the texts were written for)."""

    victim: str | None
    texts: dict
    kind: str = ""


def resolve_texts(state, texts):
    """Resolve with the texts read the way the moderator reads stored blocks at the deadline."""
    phase = RULES.phase(state)
    blocks = {player: text.splitlines() for player, text in texts.items() if player in phase.actors}
    return RULES.resolve(state, standing_orders(RULES, state, phase, blocks))


def play_first_game(data):
    count, setup_options = data.draw(st.sampled_from(CONFIGS), label="setup")
    options = {**setup_options, **data.draw(OPTIONS, label="options")}
    seed = str(data.draw(st.integers(0, 10**6), label="seed"))
    start = RULES.new_game([PlayerSpec(n) for n in player_names(count)], seed, options)
    state, steps = start, []
    for _ in range(MAX_PHASES):
        if RULES.phase(state) is None:
            break
        victim = None
        if data.draw(st.integers(0, 11), label="host kill?") == 0:
            victim = data.draw(st.sampled_from(state.living), label="removed")
            state = RULES.host_kill(state, victim, "removed by the host").state
            if RULES.phase(state) is None:
                steps.append(Step(victim, {}))
                break
        phase = RULES.phase(state)
        texts = {actor: RULES.scripted_orders(state, actor, seed) for actor in phase.actors}
        steps.append(Step(victim, texts, phase.kind))
        state = resolve_texts(state, texts).state
    return start, steps, seed


def swap_roles(state, one, other):
    chars = {c.name: c for c in state.characters}
    a, b = chars[one], chars[other]
    swapped = {
        one: replace(a, role=b.role, role_state=b.role_state),
        other: replace(b, role=a.role, role_state=a.role_state),
    }
    fresh = tuple(
        Character(
            name=c.name,
            role=swapped.get(c.name, c).role,
            role_state=swapped.get(c.name, c).role_state,
        )
        for c in state.characters
    )
    return replace(state, characters=introduce(fresh, RULES.table))


def knows(state, viewer, names):
    teams = RULES.view(state, viewer)["me"]["teams"]
    return any(name in members for members in teams.values() for name in names)


def p_sees(state, player):
    """P's view, order form, and the receipt P would get for each order naming each player."""
    phase = RULES.phase(state)
    form = [repr(spec) for spec in phase.grammar.get(player, ())] if phase else []
    return canonical_json(
        {"view": RULES.view(state, player), "form": form, "receipts": receipts(state, player)}
    )


def receipts(state, player):
    keywords = sorted(RULES.table.keywords)
    names = [c.name for c in state.characters]
    answers = {}
    for line in (
        [f"{keyword} {name}" for keyword in keywords for name in names]
        + keywords
        + ["VOTE NO LYNCH"]
    ):
        try:
            answers[line] = [str(order) for order in RULES.parse_orders(state, player, [line])]
        except OrderBlockError as error:
            answers[line] = str(error)
    return answers


def public_sees(state):
    phase = RULES.phase(state)
    shape = [phase.id, phase.kind, list(phase.actors), phase.secret_actors] if phase else None
    return canonical_json({"view": RULES.view(state, None), "phase": shape})


def compare_twins(data, first, second, steps, watcher, transform):
    """Replay the log in both games; the oracles above, phase by phase."""
    watching = True
    for index, step in enumerate(steps):
        event(f"phases compared: {min(index, 20) // 5 * 5}+")
        if first.public_log != second.public_log:
            event("public record diverged")
            return
        assert public_sees(first) == public_sees(second)
        if watching:
            assert p_sees(first, watcher) == p_sees(second, watcher), (
                f"{watcher} tells the twins apart"
            )
        if step.victim is not None:
            event(f"host kill in {RULES.phase(first).kind}")
            first_kill, second_kill = (
                RULES.host_kill(s, step.victim, "removed by the host") for s in (first, second)
            )
            if first_kill.public != second_kill.public:  # a revealed role (reveal_roles)
                event("public record diverged")
                return
            first, second = first_kill.state, second_kill.state
            if RULES.phase(first) is None:
                return
        phase = RULES.phase(first)
        me_before = (first.character(watcher), second.character(watcher))
        one = resolve_texts(first, step.texts)
        two = resolve_texts(second, transform(data, index, first, phase, step.texts))
        if one.public != two.public:
            event("public record diverged")
            return
        if watching:
            mine, theirs = one.private.get(watcher, ()), two.private.get(watcher, ())
            if mine != theirs:
                told = next(a or b for a, b in zip_longest(mine, theirs) if a != b)
                rule = REVEALED_BY.get(told.kind)
                assert rule is not None and any(rule(me) for me in me_before), (
                    f"{watcher} is told {told.kind} {dict(told.data)} in one twin only"
                )
                event(f"revealed to P by {told.kind}")
                watching = False
        first, second = one.state, two.state
    if first.public_log == second.public_log:
        assert public_sees(first) == public_sees(second)
        if watching:
            assert p_sees(first, watcher) == p_sees(second, watcher)


@settings(PROFILE)
@given(st.data())
def test_a_role_swap_is_invisible_to_everyone_else(data):
    """Two players trade roles (and their night orders): nobody else can tell, publicly or
    privately, until a rule shows it to them."""
    start, steps, _ = play_first_game(data)
    roles = sorted({c.role for c in start.characters})
    first_role, second_role = data.draw(st.permutations(roles), label="role pair")[:2]
    one = data.draw(
        st.sampled_from([c.name for c in start.characters if c.role == first_role]), label="X"
    )
    other = data.draw(
        st.sampled_from([c.name for c in start.characters if c.role == second_role]), label="Y"
    )
    twin = swap_roles(start, one, other)
    watchers = [
        c.name
        for c in start.characters
        if c.name not in (one, other)
        and not knows(start, c.name, (one, other))
        and not knows(twin, c.name, (one, other))
    ]
    if not watchers:
        event("no watcher outside both teams")
        return
    watcher = data.draw(st.sampled_from(watchers), label="P")
    event(f"roles {first_role} / {second_role}")

    def swap_night_orders(data, index, state, phase, texts):
        if phase.kind not in NIGHT_KINDS:
            return texts
        return {**texts, one: texts.get(other, ""), other: texts.get(one, "")}

    compare_twins(data, start, twin, steps, watcher, swap_night_orders)


@settings(PROFILE)
@given(st.data())
def test_a_changed_night_order_is_invisible_to_everyone_else(data):
    """One player gives another night order (a bite, a protection, a visit, the lovers'
    bond, a seduction, a kill ...): nobody else can tell, until a rule shows it to them."""
    start, steps, _ = play_first_game(data)
    watcher = data.draw(st.sampled_from([c.name for c in start.characters]), label="P")
    nights = [i for i, step in enumerate(steps) if step.kind in NIGHT_KINDS]
    changed_at = data.draw(st.sampled_from(nights), label="changed phase") if nights else -1

    def change_one_order(data, index, state, phase, texts):
        if index != changed_at or phase.kind not in NIGHT_KINDS:
            return texts
        actors = [a for a in phase.actors if a != watcher and phase.grammar.get(a)]
        if not actors:
            return texts
        actor = data.draw(st.sampled_from(actors), label="Q")
        lines = []
        for spec in phase.grammar[actor]:
            options = [f"{spec.keyword} {choice}" for choice in spec.choices] or [spec.keyword]
            choice = data.draw(st.sampled_from([None, *options]), label=spec.keyword)
            if choice:
                lines.append(choice)
        event(
            f"changed {RULES.table.by_name[state.character(actor).role].name} order in {phase.kind}"
        )
        return {**texts, actor: "\n".join(lines)}

    compare_twins(data, start, start, steps, watcher, change_one_order)
