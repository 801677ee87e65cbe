"""Token guessing (docs/design.md: Hostile input — wrong tokens are counted per address
and never refuse the right one; Order mail format — one TOKEN line per block), through the real parser and desk
on the toy Ballot game."""

from __future__ import annotations

import pytest

from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.settings import Settings
from pbp.host.status import status_text
from tests.fixtures.text import flat
from tests.fixtures.harness import ROSTER, ToyModerator
from tests.desk.test_desk import block, mail, orders_of, receive, replies
from pbp.daemon.outbox_sending import send_due

LIMIT = 3


@pytest.fixture
def moderator(tmp_path, clock):
    settings = Settings(
        data=tmp_path / "data",
        from_address="pbp@games.example",
        replies_per_sender_per_day=100,
        wrong_tokens_per_sender_per_day=LIMIT,
        host_address="host@example.org",
    )
    with ToyModerator(settings, clock=clock) as mod:
        yield mod


@pytest.fixture
def game(moderator, sender):
    created = create_game(moderator, "ballot", ROSTER, seed="s")
    send_due(moderator.outbox, sender)
    sender.sent.clear()
    return created


def guess(desk, game, token: str, number: int) -> str:
    return receive(desk, mail(block(game, token=token), message_id=f"<guess{number}@example.org>"))


def to_host(sent) -> list:
    return [message for message in sent if "host@example.org" in message["To"]]


def test_past_the_limit_wrong_tokens_go_unanswered_and_the_right_token_still_works(
    moderator, sender, game, clock
):
    desk = Desk(moderator)
    for number in range(LIMIT):
        assert guess(desk, game, f"wrong{number}xx", number) == "rejected"
    sent = [m for m in replies(moderator, sender) if m not in to_host([m])]
    assert len(sent) == LIMIT and "further ones go unanswered until 00:00 UTC" in flat(
        sent[-1].get_content()
    )
    assert guess(desk, game, "wrong99xx", 98) == "rejected"
    assert [
        m for m in replies(moderator, sender) if m not in to_host([m])
    ] == []  # past the limit: no answer
    assert guess(desk, game, game.record.tokens["Alice"], 99) == "processed"
    assert orders_of(moderator, game) == "VOTE Bruno"
    (receipt,) = replies(moderator, sender)
    assert "Accepted" in receipt.get_content()
    assert (
        guess(desk, game, "typo12345x", 100) == "rejected"
    )  # the right token started the count again
    (refusal,) = replies(moderator, sender)
    assert "TOKEN is not your token" in flat(refusal.get_content())


def test_the_host_is_told_once_by_mail_and_in_status(moderator, sender, game):
    desk = Desk(moderator)
    for number in range(LIMIT + 4):
        guess(desk, game, f"wrong{number}xx", number)
    guess(desk, game, game.record.tokens["Alice"], 50)
    for number in range(LIMIT + 1):  # the limit again, the same day
        guess(desk, game, f"again{number}xx", 60 + number)
    sent = replies(moderator, sender)
    (alert,) = to_host(sent)
    assert alert["Subject"] == "[bal1] Wrong tokens from alice@example.org"
    assert (
        "alice@example.org" in alert.get_content()
        and "Its right token still works" in alert.get_content()
    )
    status = status_text(moderator.folder, "bal1", moderator.rules)
    assert "wrong tokens: alice@example.org reached the daily limit on 2030-01-01 (UTC)" in status


def test_wrong_tokens_of_one_address_do_not_lock_out_another(moderator, sender, game):
    desk = Desk(moderator)
    for number in range(LIMIT):
        guess(desk, game, f"wrong{number}xx", number)
    bruno = block(game, player="Bruno", orders=("VOTE Chloe",))
    assert receive(desk, mail(bruno, sender="Bruno <bruno@example.org>")) == "processed"


def test_one_mail_of_many_guessing_blocks_does_not_stop_the_right_token_after_them(
    moderator, sender, game
):
    guesses = [block(game, token=f"wrong{n}xx") for n in range(LIMIT + 1)]
    body = "\n".join([*guesses, block(game)])
    assert receive(Desk(moderator), mail(body)) == "processed"
    assert orders_of(moderator, game) == "VOTE Bruno"


def test_a_block_with_two_token_lines_is_refused_even_when_one_is_right(moderator, sender, game):
    body = block(game).replace("TOKEN:", "TOKEN: wrong12345\nTOKEN:")
    assert receive(Desk(moderator), mail(body)) == "rejected"
    (reply,) = replies(moderator, sender)
    assert reply["Subject"] == "Re: [bal1] Orders NOT accepted for D1-vote"
    assert "has 2 TOKEN lines; a block has exactly one" in flat(reply.get_content())
    assert orders_of(moderator, game) is None


def test_a_mail_past_the_limit_names_the_rule_that_left_it_unanswered_in_the_ledger(
    moderator, sender, game
):
    """docs/design.md: The desk's rules — the ledger row of a wrong token past the day's
    limit names both the block's rule and the mail's."""
    desk = Desk(moderator)
    for number in range(LIMIT + 1):
        guess(desk, game, f"wrong{number}xx", number)
    rows = sorted(game.file.mails.each(), key=lambda row: row["message_id"])
    assert [row["refused_by"] for row in rows] == [["token_is_right"]] * LIMIT + [
        ["token_is_right", "wrong_tokens_within_the_daily_limit"]
    ]
