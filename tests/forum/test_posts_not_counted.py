"""The host sees every post that was not counted, with its reason, in one list (the notes
mailed after a read and shown by `pbp status`; docs/design.md: Votes in the thread), and
times in it are written as everywhere else (`… UTC`)."""
from __future__ import annotations

import pytest

from pbp.forum.thread_mail import host_note_lines
from pbp.game.final_read import read_failed, waiting_reason
from tests.forum.thread_play import ThreadPlay

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("thread_forum", ["discourse"], indirect=True)
def test_votes_refused_to_a_player_are_listed_for_the_host_with_their_reason(tmp_path, thread_forum):
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf")
    try:
        phase = play.to_day_one()
        play.post("Farid", "NOMINATE Ivan")  # no such player
        play.read()
        assert "Farid" not in play.stored_orders(phase)
        assert "Ivan" in play.mails("thread-refusal", "Farid")[-1]["body"]
        listed = "\n".join(host_note_lines(play.game))
        assert "Farid's post" in listed and "\"NOMINATE Ivan\" was not counted: " in listed
        assert "Ivan" in " ".join(play.mails("thread-notes")[-1]["body"].split())
    finally:
        play.close()


@pytest.mark.parametrize("thread_forum", ["discourse"], indirect=True)
def test_an_unreadable_thread_is_dated_as_every_other_time(tmp_path, thread_forum):
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf")
    try:
        phase = play.to_day_one()
        play.past_deadline()
        read_failed(play.moderator, play.game, "the forum answered HTTP 503.")
        said = waiting_reason(play.game.file, phase)
        assert "unreadable since 2030-01-" in said and " UTC: " in said and "+00:00" not in said
    finally:
        play.close()


@pytest.mark.parametrize("thread_forum", ["discourse"], indirect=True)
def test_a_refused_mailed_vote_lists_only_the_orders_mail_takes(tmp_path, thread_forum):
    from pbp.desk import Desk
    from tests.fixtures.harness import order_mail
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf")
    try:
        phase = play.to_day_one()
        before = len(play.game.file.outbox.all())
        Desk(play.moderator).receive(order_mail("alice@example.org", "g1", phase, play.game.token("Alice"),
                                                "NOMINATE Bruno"))
        (reply,) = [row["body"] for row in play.game.file.outbox.all()[before:] if row["recipient"] == "Alice"]
        text = " ".join(reply.split())
        assert "is given in the game's public thread, not by mail" in text
        assert "Orders you can give in Day 1 — nominations: NOMINATE" not in text
        assert "You have no orders to give in Day 1" not in text
    finally:
        play.close()
