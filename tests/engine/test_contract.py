"""The engine contract (docs/design.md: Engine contract), checked on every ruleset alike:
every ruleset the registry lists (`engine.rulesets()`) and the toy Ballot of the shell's
tests (with its Cabal variant, whose secrets sit under field names of its own). One suite,
parametrised over the rulesets, so a new ruleset is held to the same promises the shell
relies on as soon as the registry lists it, without a word changed here. Each game seats
as many players as the ruleset's card says `pbp demo` does."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from engine.core import HostActionError, OrderBlockError, PlayerSpec
from engine.seat_names import player_names
from pbp.forum.publishing.leaks import LeakCheck
from pbp.timezones import parse_duration
from tests.fixtures.toy_ruleset import Ballot, Cabal

TOYS = {
    "ballot": Ballot,
    "cabal": Cabal,
}  # the shell's toy rulesets, which the registry does not list
RULESETS = (*engine.rulesets(), *TOYS)
MAX_PHASES = 200


def rules_of(name: str) -> Any:
    return TOYS[name]() if name in TOYS else engine.ruleset(name)


def seated(name: str) -> tuple[str, ...]:
    """The players of a contract game: as many as the ruleset's own demo seats."""
    return tuple(player_names(rules_of(name).card.demo_players))


def played(name: str, seed: str = "contract") -> tuple[Any, list[Any]]:
    """A whole game of scripted players: the ruleset and every state from the first on."""
    rules = rules_of(name)
    players = [PlayerSpec(player) for player in seated(name)]
    state = rules.new_game(players, seed, {})
    states = [state]
    while (phase := rules.phase(state)) is not None:
        assert len(states) < MAX_PHASES, f"{name} did not end in {MAX_PHASES} phases"
        orders = {}
        for actor in phase.actors:
            text = rules.scripted_orders(state, actor, f"{seed}/{phase.id}/{actor}")
            orders[actor] = rules.parse_orders(state, actor, text.splitlines())
        state = rules.resolve(state, orders).state
        states.append(state)
    return rules, states


@pytest.fixture(scope="module", params=sorted(RULESETS))
def game(request: pytest.FixtureRequest) -> tuple[str, Any, list[Any]]:
    rules, states = played(request.param)
    return request.param, rules, states


def test_a_state_round_trips_through_plain_json(game):
    """States are values that `to_json`/`from_json` carry through plain JSON unchanged."""
    _name, rules, states = game
    for state in states:
        data = rules.to_json(state)
        assert json.loads(json.dumps(data)) == data
        assert rules.to_json(rules.from_json(data)) == data


def test_resolving_never_changes_the_state_it_was_given(game):
    """The engine is pure: a resolution makes a new state and leaves its input as it was."""
    _name, rules, states = game
    state = states[0]
    before = rules.to_json(state)
    phase = rules.phase(state)
    rules.resolve(state, {actor: () for actor in phase.actors})
    assert rules.to_json(state) == before


def test_an_orders_canonical_text_is_read_back_as_the_same_order(game):
    """An order's `str()` is its canonical text, which `parse_orders` accepts unchanged."""
    _name, rules, states = game
    for state in states[:-1]:
        phase = rules.phase(state)
        for actor in phase.actors:
            text = rules.scripted_orders(state, actor, f"again/{phase.id}/{actor}")
            orders = rules.parse_orders(state, actor, text.splitlines())
            assert rules.parse_orders(state, actor, [str(order) for order in orders]) == orders


def test_the_game_ends_with_a_result_exactly_when_no_phase_is_open(game):
    """`phase` is None once the game is over, and only then is there a result."""
    _name, rules, states = game
    assert all(rules.result(state) is None for state in states[:-1])
    assert rules.phase(states[-1]) is None and rules.result(states[-1]) is not None


def test_every_phase_of_a_game_has_its_own_id(game):
    """Phase ids name one phase each: the shell keys receipts, drafts and logs by them."""
    _name, rules, states = game
    ids = [rules.phase(state).id for state in states[:-1]]
    assert len(ids) == len(set(ids))


def test_views_made_together_are_each_players_view(game):
    """`views` equals `view` asked player by player, and every view is plain JSON."""
    _name, rules, states = game
    for state in states[:: max(1, len(states) // 4)]:
        players = list(seated(_name))
        together = rules.views(state, players)
        for player in players + [None]:
            alone = rules.view(state, player)
            assert json.loads(json.dumps(alone)) == alone
            if player is not None:
                assert together[player] == alone


def test_the_same_seed_plays_the_same_game(game):
    """Everything random is seeded: the same seed and orders give the same states."""
    name, rules, states = game
    _rules, again = played(name)
    assert [rules.to_json(state) for state in again] == [rules.to_json(state) for state in states]


def test_a_garbled_block_is_refused_with_every_error_at_its_line(game):
    """`parse_orders` raises one OrderBlockError listing each wrong line by its number."""
    _name, rules, states = game
    state = states[0]
    actor = rules.phase(state).actors[0]
    with pytest.raises(OrderBlockError) as refused:
        rules.parse_orders(state, actor, ["# a comment", "FROBNICATE everyone", "", "XYZZY"])
    assert [error.line for error in refused.value.errors] == [2, 4]


def test_the_host_removes_a_living_player_and_not_a_removed_one(game):
    """`host_kill` takes a living character out at once; a second removal is a
    HostActionError, never a changed state."""
    _name, rules, states = game
    state = states[0]
    victim = rules.phase(state).actors[0]
    after = rules.host_kill(state, victim, "left the game").state
    assert rules.status(state, victim).alive and not rules.status(after, victim).alive
    with pytest.raises(HostActionError):
        rules.host_kill(after, victim, "again")


def test_the_card_reserves_every_order_word_the_forms_use(game):
    """Names may not be order words: the card's reserved words cover every order keyword a
    phase's grammar offers, so a player's name never reads as an order."""
    _name, rules, states = game
    reserved = {word.upper() for word in rules.card.reserved_words}
    for state in states[:-1]:
        phase = rules.phase(state)
        for specs in phase.grammar.values():
            assert {spec.keyword.upper() for spec in specs} <= reserved


def test_every_phase_kind_has_a_default_length_a_host_could_write(game):
    """The card gives each phase kind the deadline length a game has unless its host says
    otherwise, in the host's own notation; every phase of a game is of a kind it lists."""
    _name, rules, states = game
    kinds = {kind.kind: parse_duration(kind.length) for kind in rules.card.phase_kinds}
    assert all(length.total_seconds() > 0 for length in kinds.values())
    assert {rules.phase(state).kind for state in states[:-1]} <= set(kinds)


def test_the_cards_secret_fields_hold_what_each_character_keeps_to_itself(game):
    """The leak check, reading only the card's `secret_fields`, finds each living
    character's side and role (as its status tells them, when the public view does not)
    as a fact about that character: the card declares every field its views keep them in."""
    name, rules, states = game
    players = seated(name)
    for state in states[: -1 : max(1, len(states) // 4)]:
        public = rules.view(state, None)
        check = LeakCheck(
            rules.card.secret_fields, {p: rules.view(state, p) for p in players}, public, players
        )
        facts = {
            (fact.subject, fact.value.lower()) for fact in check.facts if fact.kind == "personal"
        }
        for player in players:
            status = rules.status(state, player)
            for value in (status.team, status.role) if status.alive else ():
                if len(value) >= 3 and (player, value.lower()) not in check.public_pairs:
                    assert (player, value.lower()) in facts, (
                        f"{player}'s {value} is no secret to the leak check"
                    )
