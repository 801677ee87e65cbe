"""Replies to hostile mail (docs/design.md: Hostile input — a reply is never much larger
than what caused it; Order mail format — each reply says exactly what happened), through
the real parser and desk on an Infiltration game and the toy Ballot game."""

from __future__ import annotations

import pytest

from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.mail.limits import MAX_BLOCKS_PER_MAIL
from pbp.game.record_parts import RosterPlayer
from tests.fixtures.text import flat
from tests.desk.test_desk import block, desk, game, mail, orders_of, receive, replies  # noqa: F401 - fixtures
from pbp.daemon.outbox_sending import send_due

SMALL = 20_000  # bytes: a reply, or the growth of a game file, stays under this
INFILTRATION = [
    RosterPlayer(name, f"{name.lower()}@example.org")
    for name in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")
]  # seed "7": Alice is Red


@pytest.fixture
def infiltration(moderator, sender):
    created = create_game(moderator, "infiltration", INFILTRATION, seed="7", game_id="inf1")
    send_due(moderator.outbox, sender)
    sender.sent.clear()
    return created


def class_block(game, player: str, lines: list[str]) -> str:
    return "\n".join(
        [
            f"BEGIN ORDERS {game.id} {game.phase.id}",
            f"TOKEN: {game.record.tokens[player]}",
            *lines,
            "END ORDERS",
        ]
    )


def attack(moderator, sender, body: str, player: str = "Alice"):
    """Receive `body` from `player`; return (the reply, how much the game file grew)."""
    path = moderator.folder.game("inf1").path
    before = path.stat().st_size
    receive(Desk(moderator), mail(body, sender=f"{player} <{player.lower()}@example.org>"))
    (reply,) = replies(moderator, sender)
    return reply, path.stat().st_size - before


def test_58000_begin_lines_get_a_receipt_sized_reply_and_a_small_record(
    moderator, sender, infiltration
):
    body = "BEGIN ORDERS a b\n" * 58_000
    assert len(body) > 900_000
    reply, growth = attack(moderator, sender, body)
    text = flat(reply.get_content())
    assert len(reply.as_bytes()) < SMALL and growth < SMALL
    assert reply["Subject"] == "Re: [inf1] Orders NOT accepted for Turn 0, class choice"
    assert text.count("has no END ORDERS line") == MAX_BLOCKS_PER_MAIL
    assert (
        f"This mail holds 58,000 order blocks; one mail may carry at most {MAX_BLOCKS_PER_MAIL}, "
        f"so the other {58_000 - MAX_BLOCKS_PER_MAIL:,} were not read." in text
    )


def test_5000_class_lines_list_ten_problems_and_count_the_rest(moderator, sender, infiltration):
    reply, growth = attack(
        moderator, sender, class_block(infiltration, "Alice", ["CLASS HACKER"] * 5000)
    )
    text = reply.get_content()
    assert len(reply.as_bytes()) < SMALL and growth < SMALL
    assert 'Line 3: "CLASS HACKER" — Reds are always Warriors' in text
    assert 'Line 12: "CLASS HACKER"' in text and "Line 13:" not in text
    assert "and 4,990 more problems" in text


def test_a_long_input_line_is_quoted_cut_with_an_ellipsis(moderator, sender, infiltration):
    reply, _growth = attack(
        moderator,
        sender,
        class_block(infiltration, "Bruno", ["CLASS " + "X" * 100_000]),
        player="Bruno",
    )
    text = reply.get_content()
    assert len(reply.as_bytes()) < SMALL
    quoted_line = next(line for line in text.splitlines() if line.startswith("Line 3: "))
    assert '"CLASS XXXX' in quoted_line and "…" in quoted_line and len(quoted_line) <= 240


def test_a_long_begin_line_is_quoted_cut_with_an_ellipsis(moderator, sender, infiltration):
    reply, _growth = attack(moderator, sender, "BEGIN ORDERS " + "y" * 500_000 + "\nVOTE x\n")
    text = flat(reply.get_content())
    assert (
        len(reply.as_bytes()) < SMALL
        and 'The block starting "BEGIN ORDERS yyy' in text
        and "…" in text
    )


def test_a_mail_referring_to_20000_messages_stores_a_short_reply(moderator, sender, infiltration):
    path = moderator.folder.game("inf1").path
    before = path.stat().st_size
    references = " ".join(f"<ref{n}@example.org>" for n in range(20_000))
    receive(
        Desk(moderator), mail("HELP", sender="Alice <alice@example.org>", References=references)
    )
    assert path.stat().st_size - before < SMALL
    (reply,) = replies(moderator, sender)
    thread = reply["References"].split()
    assert (
        "<ref19999@example.org>" in thread
        and "<ref0@example.org>" not in thread
        and len(thread) <= 11
    )


def test_a_repeated_kind_names_the_repeated_line_and_the_first_ones_line(
    moderator, sender, infiltration
):
    body = class_block(infiltration, "Bruno", ["# my class", "CLASS HACKER", "", "CLASS SNEAKER"])
    reply, _growth = attack(moderator, sender, "Hello!\n" + body, player="Bruno")
    # BEGIN is line 1, TOKEN line 2, the comment line 3, the first CLASS line 4.
    assert 'Line 6: "CLASS SNEAKER" — line 4 already gave a class order' in reply.get_content()


def test_receipt_with_one_block_accepted_and_one_refused_says_the_accepted_orders_count(
    moderator, sender, desk, game
):
    body = (
        block(game, orders=("VOTE Bruno",))
        + "\n\n"
        + block(game, phase="D2-vote", orders=("VOTE Chloe",))
    )
    assert receive(desk, mail(body)) == "processed"
    (reply,) = replies(moderator, sender)
    text = flat(reply.get_content())
    assert reply["Subject"] == "Re: [bal1] Orders received for D1-vote"
    assert "Accepted for D1-vote" in text and "there is no open phase D2-vote" in text
    assert "no accepted orders" not in text
    assert (
        "Nothing from the blocks that were not accepted was used; the orders accepted above "
        "are the ones that count."
    ) in text
    assert orders_of(moderator, game) == "VOTE Bruno"


def test_a_block_for_a_game_that_does_not_exist_says_so(moderator, sender, desk, game):
    assert (
        receive(desk, mail(block(game).replace("BEGIN ORDERS bal1", "BEGIN ORDERS nosuchgame")))
        == "rejected"
    )
    (reply,) = replies(moderator, sender)
    text = flat(reply.get_content())
    assert reply["Subject"] == "Re: [bal1] Orders NOT accepted for D1-vote"
    assert (
        "Your block for nosuchgame D1-vote was not accepted: you play in no game called nosuchgame "
        "(your games: bal1). Copy the BEGIN line from your latest order form."
    ) in text
    assert "one game only" not in text


def test_a_block_without_end_orders_is_refused_not_answered_with_help(
    moderator, sender, desk, game
):
    body = block(game).replace("END ORDERS", "")
    assert receive(desk, mail(body)) == "rejected"
    (reply,) = replies(moderator, sender)
    text = flat(reply.get_content())
    assert reply["Subject"] == "Re: [bal1] Orders NOT accepted for D1-vote"
    assert 'The block starting "BEGIN ORDERS bal1 D1-vote" has no END ORDERS line' in text
    assert (
        "Nothing from this mail was accepted; you have no accepted orders for D1-vote yet." in text
    )
    assert orders_of(moderator, game) is None


def test_an_order_from_a_player_with_nothing_to_order_says_so_instead_of_an_empty_list(
    moderator, sender
):
    """A villager's KILL in a night whose actors are secret (everyone may send a block) is
    refused with "You have no orders to give", not a list of orders with nothing in it."""
    roster = [
        RosterPlayer(name, f"{name.lower()}@example.org")
        for name in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
    ]
    ww = create_game(
        moderator,
        "werewolf",
        roster,
        seed="3",
        game_id="w1",
        options={"roles": "werewolf,werewolf,seer,romantic,villager,villager,witch,villager"},
    )
    assert ww.phase.secret_actors
    villager = next(
        name
        for name in ww.record.roster.names
        if not ww.phase.grammar.get(name) and ww.status(name).alive
    )
    send_due(moderator.outbox, sender)
    sender.sent.clear()
    body = "\n".join(
        [
            f"BEGIN ORDERS w1 {ww.phase.id}",
            f"TOKEN: {ww.record.tokens[villager]}",
            "KILL Alice",
            "END ORDERS",
        ]
    )
    receive(Desk(moderator), mail(body, sender=f"{villager} <{villager.lower()}@example.org>"))
    (reply,) = replies(moderator, sender)
    text = reply.get_content()
    assert "You have no orders to give in Night 0." in text and "Orders you can give" not in text
