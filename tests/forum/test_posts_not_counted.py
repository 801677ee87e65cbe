"""The host sees every post that was not counted, with its reason, in one list (the notes
mailed after a read and shown by `pbp status`; docs/design.md: Votes in the thread), and
times in it are written as everywhere else (`… UTC`)."""

from __future__ import annotations

import pytest

from pbp.forum.thread.thread_mail import host_note_lines
from pbp.game.final_read import read_failed, waiting_reason
from tests.forum.thread_play import ThreadPlay

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("thread_forum", ["discourse"], indirect=True)
def test_votes_refused_to_a_player_are_listed_for_the_host_with_their_reason(
    tmp_path, thread_forum
):
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf")
    try:
        phase = play.to_day_one()
        play.post("Farid", "NOMINATE Ivan")  # no such player
        play.read()
        assert "Farid" not in play.stored_orders(phase)
        assert "Ivan" in play.mails("thread-refusal", "Farid")[-1]["body"]
        listed = "\n".join(host_note_lines(play.game))
        assert "Farid's post" in listed and '"NOMINATE Ivan" was not counted: ' in listed
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
        Desk(play.moderator).receive(
            order_mail("alice@example.org", "g1", phase, play.game.token("Alice"), "NOMINATE Bruno")
        )
        (reply,) = [
            row["body"]
            for row in play.game.file.outbox.all()[before:]
            if row["recipient"] == "Alice"
        ]
        text = " ".join(reply.split())
        assert "is given in the game's public thread, not by mail" in text
        assert "Orders you can give in Day 1 — nominations: NOMINATE" not in text
        assert "You have no orders to give in Day 1" not in text
    finally:
        play.close()


@pytest.mark.parametrize("thread_forum", ["discourse"], indirect=True)
def test_a_post_edited_after_its_phase_is_judged_by_the_phase_it_was_written_in(
    tmp_path, thread_forum
):
    """The time judged is the edit's, against the phase the forum shows the post in (the
    phase open when it was created): a nomination edited once the vote is open is an edit
    after the deadline of the nominations, not a vote in the next phase."""
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf")
    try:
        nominations = play.to_day_one()
        post = play.post("Alice", "NOMINATE Bruno")
        play.post("Bruno", "NOMINATE Alice")
        play.read()
        play.past_deadline()
        (summary,) = play.resolve_due()
        play.publish()
        vote = summary.next_phase
        assert vote != nominations
        play.forum.edit(post, "VOTE Bruno", play.clock.tick(3))
        play.read()
        assert play.stored_orders(vote) == {}
        assert play.mails("thread-refusal", "Alice") == []
        listed = " ".join(" ".join(host_note_lines(play.game)).split())
        assert "after the deadline of Day 1 — nominations" in listed, listed
        assert "posts in the thread not counted in Day 1 — vote: 1" in listed
        assert "+00:00" not in listed and " UTC, after" in listed
    finally:
        play.close()


@pytest.mark.parametrize("thread_forum", ["discourse"], indirect=True)
def test_status_lists_every_post_not_counted_in_the_phase_with_its_reason(
    tmp_path, thread_forum, monkeypatch, capsys
):
    from pbp.cli import main

    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf")
    try:
        play.to_day_one()
        play.post("mallory", "NOMINATE Bruno")  # an account of no player
        play.post("Chloe", "I agree. **Nominate Bruno**")  # mid-line
        for number in range(6):
            play.post("Farid", f"NOMINATE Ivan{number}")  # no such player, six times
        play.post("Dmitri", "NOMINATE Bruno", minutes=24 * 60)  # after the deadline
        play.read()
        monkeypatch.setenv("PBP_SETTINGS", str(play.moderator.settings.source))
    finally:
        play.close()
    assert main(["orders", "g1"]) == 0
    orders = capsys.readouterr().out
    assert main(["status", "g1"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "+00:00" not in said + orders, orders
    assert "posts in the thread not counted in Day 1 — nominations: 9" in said, said
    assert "stands for no player" in said and "not on a line of its own" in said
    assert said.count("Farid's post") == 6 and "posted after the deadline" in said
