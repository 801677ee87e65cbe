"""The desk's rules one by one (docs/design.md: The desk's rules): each rule of
pbp.game.judging.block_rules refuses the one case it names and lets a good block pass, and the
rule that refused a mail's block is kept with the mail in the ledger. On the toy Ballot
game (Alice, Bruno, Chloé, Dmitri; D1-vote open)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from pbp.desk import Desk
from pbp.game.judging import block_rules
from pbp.game.judging.block_rules import OrderCase
from pbp.game.create import create_game
from pbp.game.resolution import resolve_phase
from pbp.game.stored import load
from pbp.game.judging.token_guard import TokenGuard
from pbp.ports import OrderBlock
from tests.desk.test_desk import block, mail, receive
from tests.fixtures.harness import ROSTER
from pbp.daemon.outbox_sending import send_due


@pytest.fixture
def game(moderator, sender):
    created = create_game(moderator, "ballot", ROSTER, seed="s")
    send_due(moderator.outbox, sender)
    return load(moderator, created.id)


def case(
    game, name="Alice", game_id=None, phase="D1-vote", token="", lines=("VOTE Bruno",), games=None
):
    """A block as the rules see it; by default Alice's good block for the open phase."""
    token = game.token(name) if token == "" else token
    order_block = OrderBlock(game_id or game.id, phase, token, tuple(lines), 3, False)
    guard = TokenGuard(game.file, f"{name.lower()}@example.org", dt.date(2026, 1, 1), 3)
    about = {"block_game": order_block.game, "block_phase": phase}
    return OrderCase(
        game, name, games if games is not None else [game.id], guard, token, about, order_block
    )


def refused_kind(rule, this_case):
    refusal = rule(this_case)
    return None if refusal is None else (refusal.rule, refusal.verdict.kind)


def test_every_rule_lets_a_good_block_pass(game):
    good = case(game)
    assert [rule.__name__ for rule in block_rules.ORDER_RULES if rule(good) is not None] == []
    assert block_rules.first_refusal(good, block_rules.ORDER_RULES) is None


def test_names_a_game_of_the_sender_refuses_a_game_they_do_not_play(game):
    assert refused_kind(block_rules.names_a_game_of_the_sender, case(game, game_id="zzz9")) == (
        "names_a_game_of_the_sender",
        "unknown_game",
    )


def test_names_this_game_refuses_another_of_the_senders_games(game):
    other = case(game, game_id="bal2", games=[game.id, "bal2"])
    assert block_rules.names_a_game_of_the_sender(other) is None
    assert refused_kind(block_rules.names_this_game, other) == ("names_this_game", "other_game")


def test_carries_a_token_refuses_a_block_without_one(game):
    assert refused_kind(block_rules.carries_a_token, case(game, token=None)) == (
        "carries_a_token",
        "no_token",
    )


def test_token_is_right_refuses_another_players_token_and_counts_it(game):
    wrong = case(game, token=game.token("Bruno"))
    assert refused_kind(block_rules.token_is_right, wrong) == ("token_is_right", "wrong_token")
    assert wrong.guard.count == 1


def test_game_is_running_refuses_a_block_for_a_finished_game(moderator, game):
    finished = dataclasses.replace(game, phase=None)  # the game as it stands once over
    assert refused_kind(block_rules.game_is_running, case(finished)) == (
        "game_is_running",
        "game_over",
    )


def test_phase_is_open_refuses_a_closed_phase_and_an_unknown_one(moderator, game):
    assert refused_kind(block_rules.phase_is_open, case(game, phase="D7-vote")) == (
        "phase_is_open",
        "no_such_phase",
    )
    resolve_phase(moderator, game.id)
    later = load(moderator, game.id)
    assert refused_kind(block_rules.phase_is_open, case(later, phase="D1-vote")) == (
        "phase_is_open",
        "closed_phase",
    )
    assert (
        block_rules.phase_is_open(case(later, phase="d2-VOTE")) is None
    )  # ids are read in any case


def test_sender_acts_now_refuses_the_dead(moderator, game):
    resolve_phase(moderator, game.id)  # nobody voted: Dmitri (last alphabetically) is out
    later = load(moderator, game.id)
    assert refused_kind(block_rules.sender_acts_now, case(later, "Dmitri", phase="D2-vote")) == (
        "sender_acts_now",
        "dead",
    )


def test_form_is_filled_refuses_an_empty_form_which_is_no_submission(game):
    refusal = block_rules.form_is_filled(case(game, lines=()))
    assert refusal is not None and refusal.rule == "form_is_filled" and refusal.submission is False


def test_the_rule_that_refused_is_kept_in_the_ledger(moderator, game):
    desk = Desk(moderator)
    assert (
        receive(desk, mail(block(game, token="wrongtoken1"), message_id="<a@example.org>"))
        == "rejected"
    )
    assert (
        receive(desk, mail(block(game, phase="D9-vote"), message_id="<b@example.org>"))
        == "rejected"
    )
    assert receive(desk, mail(block(game), message_id="<c@example.org>")) == "processed"
    rows = sorted(game.file.mails.each(), key=lambda row: row["message_id"])
    assert [row.get("refused_by") for row in rows] == [["token_is_right"], ["phase_is_open"], None]
