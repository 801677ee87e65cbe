"""Guessing the host token of an approval by mail (docs/design.md: Hostile input — wrong
tokens are counted per address, the host's included, and never refuse the right one)."""

from __future__ import annotations

from pbp.desk import Desk
from pbp.storage.drafts import APPROVED, DraftBook
from pbp.game.stored import load

from tests.forum.conftest import stored
from tests.forum.test_review import host_mail
from pbp.storage.host_token import host_token

LIMIT = 10  # the default wrong_tokens_per_sender_per_day


def test_after_ten_wrong_host_tokens_the_right_one_still_works_and_the_host_is_told_once(host_game):
    moderator, game = stored(host_game)
    with moderator:
        desk = Desk(moderator)
        for number in range(LIMIT + 2):
            assert desk.receive(host_mail(f"guess-{number}", key=f"1:{number}")) == "rejected"
        token = host_token(load(moderator, "inf1").file)
        assert desk.receive(host_mail(token, key="2:1")) == "processed"
        game = load(moderator, "inf1")
        assert DraftBook(game.file).get("T0-class").status == APPROVED
        rows = game.file.outbox.all()
        (alert,) = [row for row in rows if row["kind"] == "wrong-tokens"]
        assert (
            alert["address"] == "host@example.org"
            and "sent 10 wrong tokens for game inf1" in alert["body"]
        )
        answers = [row["body"] for row in rows if row["kind"] == "host-reply"]
        assert len(answers) == LIMIT + 1  # the two wrong tokens past the limit were not answered
        assert "Approved the post" in answers[-1]


def test_a_few_wrong_host_tokens_do_not_stop_the_right_one(host_game):
    moderator, game = stored(host_game)
    with moderator:
        desk = Desk(moderator)
        for number in range(LIMIT - 1):
            desk.receive(host_mail(f"guess-{number}", key=f"1:{number}"))
        token = host_token(load(moderator, "inf1").file)
        assert desk.receive(host_mail(token, key="2:1")) == "processed"
        assert DraftBook(load(moderator, "inf1").file).get("T0-class").status == APPROVED
