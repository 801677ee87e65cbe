"""The ruleset card and the player status (docs/design.md: Engine contract): what the
shell learns from each ruleset instead of keeping its own tables."""

from __future__ import annotations

import pytest

import engine
from engine.core import HostActionError, PlayerSpec, did_you_mean, parse_on_off
from engine import name_problem, reserved_words
from engine.seat_names import player_names


def _game(name: str, count: int):
    rules = engine.ruleset(name)
    return rules, rules.new_game([PlayerSpec(n) for n in player_names(count)], "card", {})


@pytest.mark.parametrize("name, count", [("infiltration", 8), ("werewolf", 11)])
def test_a_host_kill_that_cannot_apply_raises_the_contracts_error(name, count):
    rules, state = _game(name, count)
    victim = rules.phase(state).actors[0]
    state = rules.host_kill(state, victim, "broke the rules").state
    with pytest.raises(HostActionError):
        rules.host_kill(state, victim, "again")
    assert not rules.status(state, victim).alive


@pytest.mark.parametrize("name, count", [("infiltration", 8), ("werewolf", 11)])
def test_the_card_covers_every_phase_kind_and_order_keyword(name, count):
    rules, state = _game(name, count)
    kinds = {kind.kind for kind in rules.card.phase_kinds}
    assert rules.phase(state).kind in kinds
    assert all(
        set(line.kinds) <= kinds
        for line in rules.card.orders
        if line.phases in ("T0-class", "Dn-vote")
    )
    assert set(rules.card.public_orders) <= reserved_words()


def test_names_are_checked_against_every_registered_card():
    assert "reads as a room" in name_problem("d4")
    assert "floor letter" in name_problem("H")
    assert "keyword" in name_problem("Seduce")  # Werewolf's card
    assert "keyword" in name_problem("Superlocator")  # Infiltration's card
    assert "keyword" in name_problem("Token")  # the order mail's own syntax
    assert name_problem("Alice") is None


def test_team_channels_follow_the_rules():
    """docs/rules: the Reds share `reds`; the wolves the `pack`."""
    rules, state = _game("infiltration", 8)
    reds = [n for n in rules.phase(state).actors if rules.status(state, n).label == "red"]
    assert reds and all(rules.status(state, n).channels == ("reds",) for n in reds)
    rules, state = _game("werewolf", 11)
    wolves = [c.name for c in state.characters if c.role == "werewolf"]
    assert wolves and all("pack" in rules.status(state, n).channels for n in wolves)


def test_awaited_leaves_out_actors_with_nothing_to_order():
    """A Werewolf night lists every living player as an actor; only those with a night
    order are awaited."""
    rules, state = _game("werewolf", 11)
    phase = rules.phase(state)
    assert set(phase.awaited) == {n for n in phase.actors if phase.grammar[n]} != set(phase.actors)


def test_one_did_you_mean_and_one_on_off_vocabulary():
    assert did_you_mean("atack", ["ATTACK", "STAY"]) == " Did you mean ATTACK?"
    assert did_you_mean("xyz", ["ATTACK"]) == ""


def test_did_you_mean_offers_every_word_within_reach_a_transposition_one_edit():
    """`stauts` is one transposition from `status` and one deletion from `stats`: both are
    offered, the nearest first (docs/design.md: Command line)."""
    commands = ["advance", "start", "stats", "status", "submit"]
    assert did_you_mean("stauts", commands) == " Did you mean status or stats?"
    assert did_you_mean("sattus", commands) == " Did you mean status?"
    assert did_you_mean("stat", commands) == " Did you mean start or stats?"
    assert did_you_mean("jsoe", ["José", "Bruno"]) == " Did you mean José?"
    assert [parse_on_off(w) for w in ("On", "yes", "1", "off", "none", "0", "maybe")] == [
        True,
        True,
        True,
        False,
        False,
        False,
        None,
    ]


def test_the_werewolf_character_summary_tells_bonds_silences_and_what_a_role_has_left():
    """docs/design.md, The host's view (`pbp show`): a character's lover, known teammates,
    silence and what its role has left, read from its own view, all along a scripted game."""
    rules = engine.ruleset("werewolf")
    names = player_names(11)
    state = rules.new_game([PlayerSpec(n) for n in names], 3, {"setup_11": "romantic"})
    seen = set()
    while rules.phase(state) is not None:
        for name in names:
            view = rules.view(state, name)
            me = view["me"]
            lines = [str(line) for line in rules.card.character_summary(view)]  # the English
            assert lines[0].startswith(
                f"{me['role'].capitalize()} ({me['faction']}), {'alive' if me['alive'] else 'dead'}"
            )
            assert ("silenced today" in lines[0]) == me["silenced"]
            assert (f"Lover: {me['lover']}" in lines) == bool(me["lover"])
            for team, mates in me["teams"].items():
                assert (f"Knows the {team}: {', '.join(mates)}" in lines) == bool(mates)
            if me["role"] == "witch":
                assert any(line.startswith("POISON: ") and "SAVE: " in line for line in lines)
            seen.update(key for key in ("silenced", "lover") if me[key])
        phase = rules.phase(state)
        state = rules.resolve(
            state,
            {
                a: rules.parse_orders(state, a, rules.scripted_orders(state, a, 3).splitlines())
                for a in phase.actors
            },
        ).state
    assert seen == {"silenced", "lover"}


@pytest.mark.parametrize("name, count", [("infiltration", 8), ("werewolf", 11)])
def test_the_public_roster_lists_every_character_and_a_host_kills_death_with_when(name, count):
    """The card's public roster (engine.core.PublicCharacter) is what the shell reads of the
    public view: everyone alive at the start; a modkilled character dead, with when it died
    in the rules' words, as the public post's facts show it."""
    rules, state = _game(name, count)
    first = rules.card.public_roster(rules.view(state, None))
    assert [c.name for c in first] == player_names(count) and all(
        c.alive and not c.npc for c in first
    )
    victim = player_names(count)[0]
    after = rules.host_kill(state, victim, "left the game").state
    roster = {c.name: c for c in rules.card.public_roster(rules.view(after, None))}
    assert not roster[victim].alive and roster[victim].died
    assert all(c.alive and not c.died for n, c in roster.items() if n != victim)


def test_the_registry_names_its_default_and_one_card_declares_the_calibration():
    """The shell takes the default ruleset from the registry and the balance study's setups
    from the cards (docs/balance.md: Reproducing): the default is registered, every card
    gives its setups figure's sizes, and exactly one declares the calibration, whose plain
    game seats n players, m of them off the counted side and the rest of it, with the roles
    of the law: the same role for everyone on a side."""
    assert engine.DEFAULT_RULESET in engine.rulesets()
    cards = {name: engine.ruleset(name).card for name in engine.rulesets()}
    assert all(
        card.balance_study.figure_sizes and card.balance_study.figure_games > 0
        for card in cards.values()
    )
    calibrated = [name for name, card in cards.items() if card.balance_study.calibration]
    assert len(calibrated) == 1
    rules = engine.ruleset(calibrated[0])
    calibration = rules.card.balance_study.calibration
    for night_first in (False, True):
        state = rules.new_game(
            [PlayerSpec(n) for n in player_names(9)],
            "law",
            calibration.plain_game(9, 2, night_first),
        )
        statuses = [rules.status(state, n) for n in player_names(9)]
        killers = [s for s in statuses if s.team != calibration.side]
        assert len(killers) == 2 and len({s.role for s in killers}) == 1
        assert len({s.role for s in statuses if s.team == calibration.side}) == 1
    for anchor in calibration.anchors:  # each made with its own config (its server's roles)
        anchor_rules = engine.ruleset(calibrated[0], **anchor.config)
        anchor_rules.new_game(
            [PlayerSpec(n) for n in player_names(anchor.players)], "anchor", anchor.options
        )
        assert anchor.band[0] < anchor.rate < anchor.band[1]
