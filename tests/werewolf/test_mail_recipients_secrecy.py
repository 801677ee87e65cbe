"""Who gets mail never tells who holds a role (docs/design.md: Mail only where it tells
something).

Twin games as in test_secrecy_proofs: hypothesis plays a game with scripted players and
random host kills, then replays its order log in a twin that differs in one hidden fact (two
players trade roles and night orders, or one night order is changed). While the public
record of the twins is the same, every resolution mails exactly the same players in both
(`pbp.game.notifying.recipients.report_recipients`), so nobody, not even someone who saw every
player's mailbox, can tell the twins apart by who got mail.
"""

from __future__ import annotations

import sys

from hypothesis import event, given, settings
from hypothesis import strategies as st

from pbp.game.notifying.recipients import report_recipients
from tests.werewolf.test_secrecy_proofs import (
    NIGHT_KINDS,
    PROFILE,
    RULES,
    play_first_game,
    resolve_texts,
    swap_roles,
)


def recipients(state, resolution):
    return report_recipients(
        state.living, resolution.public, resolution.private, RULES.phase(resolution.state)
    )


def compare_recipients(first, second, steps, transform, data):
    for index, step in enumerate(steps):
        if first.public_log != second.public_log:
            event("public record diverged")
            return
        if step.victim is not None:
            first_kill, second_kill = (
                RULES.host_kill(s, step.victim, "removed by the host") for s in (first, second)
            )
            if first_kill.public != second_kill.public:
                return
            first, second = first_kill.state, second_kill.state
            if RULES.phase(first) is None:
                return
        phase = RULES.phase(first)
        one = resolve_texts(first, step.texts)
        two = resolve_texts(second, transform(data, index, first, phase, step.texts))
        if one.public != two.public:
            event("public record diverged")
            return
        mailed = recipients(first, one)
        assert mailed == recipients(second, two), f"{phase.id}: the twins mail different players"
        event("someone mailed alone" if set(mailed) != set(first.living) else "everyone mailed")
        first, second = one.state, two.state


@settings(PROFILE)
@given(st.data())
def test_who_gets_mail_does_not_tell_a_role_swap(data):
    """Two players trade roles and night orders: while nothing public differs, the same
    players get mail after every resolution."""
    start, steps, _ = play_first_game(data)
    names = sorted(c.name for c in start.characters)
    one, other = data.draw(st.permutations(names), label="pair")[:2]
    twin = swap_roles(start, one, other)

    def swap_night_orders(data, index, state, phase, texts):
        if phase.kind not in NIGHT_KINDS:
            return texts
        return {**texts, one: texts.get(other, ""), other: texts.get(one, "")}

    compare_recipients(start, twin, steps, swap_night_orders, data)


@settings(PROFILE)
@given(st.data())
def test_who_gets_mail_does_not_tell_a_night_order(data):
    """One night order is left out: while nothing public differs, the same players get
    mail after every resolution."""
    start, steps, _ = play_first_game(data)
    nights = [i for i, step in enumerate(steps) if step.kind in NIGHT_KINDS]
    changed_at = data.draw(st.sampled_from(nights), label="changed phase") if nights else -1

    def drop_one_order(data, index, state, phase, texts):
        actors = [a for a in phase.actors if phase.grammar.get(a)]
        if index != changed_at or not actors:
            return texts
        return {**texts, data.draw(st.sampled_from(actors), label="Q"): ""}

    compare_recipients(start, start, steps, drop_one_order, data)


def test_a_night_with_a_witch_who_may_live_mails_everyone_and_a_flipped_dead_witch_mails_nobody():
    """The mid-night resolution (Nn to Nn-witch) makes nothing public: it mails every living
    player while a Witch may be alive, and nobody once every Witch of the setup died with
    her role shown (reveal_roles), when the Witch's turn also awaits nobody."""
    from engine.core import PlayerSpec
    from engine.seat_names import player_names

    state = RULES.new_game([PlayerSpec(n) for n in player_names(9)], "mid", {"reveal_roles": True})
    state = resolve_texts(state, {}).state  # N0 -> D1-nominate
    state = resolve_texts(state, {}).state  # no nominations: N1
    night = resolve_texts(state, {})
    assert RULES.phase(night.state).kind == "witch"
    assert set(recipients(state, night)) == set(state.living)
    witch = next(c.name for c in state.characters if c.role == "witch")
    flipped = RULES.host_kill(state, witch, "left").state
    night = resolve_texts(flipped, {})
    assert RULES.phase(night.state).kind == "witch" and not RULES.phase(night.state).secret_actors
    assert recipients(flipped, night) == ()


class Replayed:
    """The draws of one example hypothesis found, replayed in order (`data.draw`)."""

    def __init__(self, draws):
        self.draws = list(draws)

    def draw(self, strategy, label=None):
        return self.draws.pop(0)


SEDUCED_WITCH_REMOVED = (
    (
        16,
        {
            "roles": "werewolf,werewolf,howler,seer,witch,bodyguard,wench,romantic,mason,mason,rabble rouser,"
            "apothecary,ninja,succubus,werehamster,weregerbil"
        },
    ),
    {
        "reveal_roles": True,
        "wench_missing": "random",
        "bodyguard_self": "forbidden",
        "bodyguard_repeat": "allowed",
        "wolf_tie": "no-kill",
    },
    999999,
    1,
    1,
    0,
    "Bruno",
    0,
    "Dmitri",
    1,
    1,
    1,
    1,
    1,
    0,
    "Chloe",
    1,
)


def test_a_witch_flipped_at_her_removal_does_not_end_the_secret_while_a_succubus_may_hold_her_role(
    monkeypatch,
):
    """The Succubus seduced the Witch the night the host removed her: the removal showed
    "Witch", yet the Succubus holds the role. While a Succubus of the setup has not died
    flipped as one, the Witch's turn stays secret, so mailing the new Witch alone never
    points at her (the example hypothesis found: Alice, the Succubus, against Chloe)."""
    monkeypatch.setattr(sys.modules[__name__], "event", lambda *args: None)  # outside hypothesis
    data = Replayed(SEDUCED_WITCH_REMOVED)
    start, steps, _ = play_first_game(data)
    twin = swap_roles(start, "Alice", "Chloe")

    def swap_night_orders(data, index, state, phase, texts):
        if phase.kind not in NIGHT_KINDS:
            return texts
        return {**texts, "Alice": texts.get("Chloe", ""), "Chloe": texts.get("Alice", "")}

    compare_recipients(start, twin, steps, swap_night_orders, data)
