"""Conformance: votes cast in the game's thread (docs/rules/werewolf.md and
docs/rules/infiltration.md: Votes in the thread; docs/design.md: Public posts — votes in
the thread). Each scenario runs on the local Reddit (real praw) and the local Discourse
(pbp's real `requests` client), one rule per test, in a Werewolf game on Day 1."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbp.cli import main
from tests.forum.thread_play import GAME, ThreadPlay

pytestmark = pytest.mark.integration


@pytest.fixture
def play(tmp_path, thread_forum):
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf")
    yield play
    play.close()


def test_t001_a_vote_line_counts_in_any_case_with_or_without_markup(play):
    """Votes in the thread: a line that starts with the order word, in any case, bold or
    not, is an order, read by the engine's parser and name matching (accents folded,
    trailing dot dropped)."""
    phase = play.to_day_one()
    play.post("Alice", "Hello all.\n**NOMINATE Bruno** because he lied")
    play.post("Bruno", "[b]nominate: chloe[/b]")
    play.post("Chloe", "Nominate: Dmitri.")
    play.post("Dmitri", "* nominate élena")
    play.read()
    assert play.stored_orders(phase) == {
        "Alice": "NOMINATE Bruno",
        "Bruno": "NOMINATE Chloe",
        "Chloe": "NOMINATE Dmitri",
        "Dmitri": "NOMINATE Elena",
    }


def test_t002_quotes_spoilers_and_code_are_not_orders(play):
    """Votes in the thread: lines inside quotes, spoilers and code are not the author's
    orders."""
    phase = play.to_day_one()
    play.post("Alice", "> NOMINATE Bruno\n\nAlice quoting someone.")
    play.post("Bruno", "[quote=alice_f]NOMINATE Chloe[/quote]\nI would not.")
    play.post("Chloe", ">!NOMINATE Dmitri!<")
    play.post(
        "Dmitri", "[spoiler]NOMINATE Elena[/spoiler]\n[details=why]\nNOMINATE Elena\n[/details]"
    )
    play.post("Elena", "`NOMINATE Farid`\n\n```\nNOMINATE Farid\n```")
    play.read()
    assert play.stored_orders(phase) == {}


def test_t003_a_post_with_two_votes_counts_its_last(play):
    """Votes in the thread: a post with two different votes counts its last."""
    phase = play.to_day_one()
    play.post("Alice", "NOMINATE Bruno\nwait, no.\nNOMINATE Chloe")
    play.read()
    assert play.stored_orders(phase) == {"Alice": "NOMINATE Chloe"}


def test_t004_unvote_takes_a_vote_back_and_a_later_post_replaces_an_earlier(play):
    """Votes in the thread: a later post replaces an earlier vote; UNNOMINATE (UNVOTE)
    withdraws it."""
    phase = play.to_day_one()
    play.post("Alice", "NOMINATE Bruno")
    play.post("Bruno", "NOMINATE Chloe")
    play.read()
    play.post("Alice", "nominate Dmitri")
    play.post("Bruno", "**UNNOMINATE**")
    play.read()
    assert play.stored_orders(phase) == {"Alice": "NOMINATE Dmitri", "Bruno": ""}


def test_t005_nobody_votes_as_someone_else(play):
    """Votes in the thread: an account counts only by the forum name the host wrote (or
    a LINK); a post claiming a player's name, or by an account named like the player,
    is not counted and is listed for the host."""
    phase = play.to_day_one()
    play.post("mallory", "I am Alice, my other account.\nNOMINATE Bruno")
    play.post("alice", "NOMINATE Bruno")  # the player's name, not her forum account
    play.read()
    assert play.stored_orders(phase) == {}
    (note,) = play.mails("thread-notes", "host")
    assert "mallory" in note["body"] and "stands for no player" in note["body"]


def test_t006_an_edit_before_the_deadline_is_a_new_vote_after_it_is_ignored(play):
    """Votes in the thread: a vote counts as first read; an edit that changes it counts
    as a new vote at the edit's time before the deadline; after the deadline it is
    ignored and listed for the host."""
    phase = play.to_day_one()
    post = play.post("Alice", "NOMINATE Bruno")
    play.read()
    play.forum.edit(post, "NOMINATE Chloe", play.clock.tick(5))
    play.read()
    assert play.stored_orders(phase) == {"Alice": "NOMINATE Chloe"}
    play.forum.edit(post, "NOMINATE Dmitri", play.deadline + 30)
    play.past_deadline()
    (summary,) = play.resolve_due()
    assert "Alice → Chloe" in " ".join(summary.public)
    notes = " ".join(row["body"] for row in play.mails("thread-notes", "host"))
    assert "after the deadline" in " ".join(notes.split()) and "Dmitri" in notes


def test_t007_a_deleted_posts_vote_stands(play):
    """Votes in the thread: a deleted post's vote stands unless withdrawn by UNVOTE."""
    phase = play.to_day_one()
    post = play.post("Alice", "NOMINATE Bruno")
    play.read()
    play.forum.delete(post, play.clock.tick(2))
    play.read()
    assert play.stored_orders(phase) == {"Alice": "NOMINATE Bruno"}
    assert "was deleted" in " ".join(
        " ".join(row["body"] for row in play.mails("thread-notes", "host")).split()
    )


def test_t008_a_vote_posted_after_the_deadline_is_not_counted(play):
    """Votes in the thread: a vote counts at the time the forum says the post was
    created, and only if that is before the deadline (the last read, after the
    deadline, still sees it)."""
    phase = play.to_day_one()
    play.post("Alice", "NOMINATE Bruno")
    play.forum.post(play.thread, "bruno_f", "NOMINATE Chloe", play.deadline + 60)
    play.past_deadline(minutes=5)
    (summary,) = play.resolve_due()
    text = " ".join(summary.public)
    assert "Alice → Bruno" in text and "Bruno → Chloe" not in text
    (refusal,) = play.mails("thread-refusal", "Bruno")
    assert "after the deadline" in " ".join(refusal["body"].split())
    assert play.game.phase.id != phase


def test_t009_resolution_waits_while_the_thread_cannot_be_read(play, monkeypatch):
    """Votes in the thread: before a phase resolves pbp reads the thread one last time;
    if the forum cannot be read, resolution waits, the host is told at once, and `pbp
    advance --without-thread` resolves with what was read."""
    phase = play.to_day_one()
    play.post("Alice", "NOMINATE Bruno")
    play.read()
    play.post("Bruno", "NOMINATE Chloe")  # never read: the forum fails from here on
    play.forum.fail_reads()
    play.past_deadline()
    assert play.resolve_due() == []
    assert play.resolve_due() == []  # still waiting; the host is told once
    (told,) = play.mails("thread-unreadable", "host")
    assert "--without-thread" in told["body"] and play.game.phase.id == phase
    monkeypatch.setenv("PBP_SETTINGS", str(play.moderator.settings.source))
    play.close()
    assert main(["status", GAME]) == 0
    assert main(["advance", GAME]) != 0  # a plain advance reads the thread too, and cannot
    assert main(["advance", GAME, "--without-thread"]) == 0
    play.moderator.__enter__()
    assert play.game.phase.id != phase
    resolved = [row for row in play.game.file.orders.where("phase", phase)]
    assert {row["player"] for row in resolved} == {"Alice"}


def test_t010_votes_by_the_dead_and_by_non_players_are_listed_not_counted(play):
    """Votes in the thread: votes by the dead, the silenced or non-players are not
    counted and are listed for the host (the thread watch)."""
    from pbp.host.removal import modkill

    phase = play.to_day_one()
    modkill(play.moderator, GAME, "Alice", "left the game")
    play.post("Alice", "NOMINATE Bruno")
    play.post("stranger", "NOMINATE Bruno")
    play.read()
    assert "Alice" not in play.stored_orders(phase)
    notes = " ".join(" ".join(row["body"] for row in play.mails("thread-notes", "host")).split())
    assert "Alice is dead" in notes and "stranger" in notes
    assert any("Alice" in row["body"] for row in play.mails("thread-watch", "host"))


def test_t011_five_hundred_votes_in_one_phase(play):
    """Votes in the thread: each player's last vote before the deadline counts, however
    many they post (500 posts in one phase, read in one go)."""
    phase = play.to_day_one()
    names = list(play.game.phase.actors)
    last = {}
    for number in range(500):
        voter, target = names[number % len(names)], names[(number * 7 + 3) % len(names)]
        play.post(voter, f"**NOMINATE {target}**", minutes=0.5)
        last[voter] = f"NOMINATE {target}"
    play.past_deadline()
    (summary,) = play.resolve_due()
    assert summary.phase == phase
    stored = {player: row.text for player, row in play.game.latest_orders(phase).items()}
    assert stored == last


def test_t012_a_vote_by_mail_is_refused_when_votes_are_cast_in_the_thread(play):
    """Votes in the thread: with votes = thread a mail block may not give a public
    order; the form lists the public orders apart, with how to post them."""
    from pbp.game.judging.order_lines import read_orders

    play.to_day_one()
    game = play.game
    read = read_orders(
        game.rules,
        game.state,
        game.phase,
        "Alice",
        ["NOMINATE Bruno"],
        lambda: game.standing_lines("Alice"),
        votes=game.votes,
        barred=game.thread_only("Alice"),
    )
    assert read.errors and "public thread" in read.errors[0].message
    form = game.form("Alice")
    assert form["orders"] == [] and [o["keyword"] for o in form["thread_orders"]] == ["NOMINATE"]
    assert form["thread_orders"][0]["take_back"] == "UNNOMINATE"


def test_t013_thread_receipts_are_mailed_only_when_the_option_is_on(tmp_path, thread_forum):
    """Votes in the thread: a private receipt for a thread vote is optional
    (thread_receipts, default off)."""
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf", options={"thread_receipts": "on"})
    try:
        play.to_day_one()
        play.post("Alice", "NOMINATE Bruno")
        play.read()
        (receipt,) = play.mails("thread-receipt", "Alice")
        assert "NOMINATE Bruno" in receipt["body"]
        assert all(len(line) <= 72 for line in receipt["body"].splitlines())
    finally:
        play.close()


def test_t014_players_who_post_too_little_are_prodded_and_the_host_sees_it(tmp_path, thread_forum):
    """Votes in the thread: prod_below = N@T mails a private prod to a living player
    with fewer than N posts by T before the deadline; `pbp status` lists who was
    prodded and each player's posts."""
    from pbp.forum.thread.activity import activity_lines, queue_prods

    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf", options={"prod_below": "2@2h"})
    try:
        play.to_day_one()
        play.post("Alice", "One post.")
        play.post("Alice", "Two posts, and some words.")
        play.post("Bruno", "Just one.")
        play.read()
        play.clock.moment = play.game.clock.deadline - timedelta(hours=1)
        done = queue_prods(play.moderator)
        assert "Alice" not in " ".join(done) and any("Bruno (1 post)" in line for line in done)
        assert queue_prods(play.moderator) == []  # once a day
        assert play.mails("prod", "Bruno") and not play.mails("prod", "Alice")
        lines = "\n".join(activity_lines(play.game))
        assert "Alice 2 (" in lines and "Bruno 1 (" in lines and "prodded: " in lines
    finally:
        play.close()


def test_t015_a_running_count_follows_every_n_votes_with_a_link_to_each(tmp_path, thread_forum):
    """Votes in the thread: tally_after_votes = N drafts a running count after every N
    new votes; with auto_publish it is published, each vote linked to its post, non-
    voters listed."""
    from pbp.forum.thread.running_counts import draft_vote_tallies

    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf", options={"tally_after_votes": "2"})
    try:
        play.to_day_one()
        play.post("Alice", "NOMINATE Bruno")
        play.read()
        assert draft_vote_tallies(play.moderator) == []
        play.post("Chloe", "NOMINATE Bruno")
        play.read()
        assert len(draft_vote_tallies(play.moderator)) == 1
        assert play.publish() == 1
        posted = play.forum.published()[-1]
        assert "Bruno" in posted and ": 2 (" in posted and "No nomination yet from" in posted
        assert posted.count("](http") + posted.count("[url=http") == 2
    finally:
        play.close()


def test_t042_strangers_posts_are_kept_small(tmp_path, thread_forum):
    """Votes in the thread (attack: strangers' posts stored in full): 600 posts by
    accounts that stand for nobody grew the game's files by 2.4 MB. For such a post pbp
    keeps its id, revision and author; for a player's, at most its last line per order."""
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf")
    try:
        phase = play.to_day_one()
        play.read()
        games = tmp_path / "data" / "games"
        size = lambda: sum(path.stat().st_size for path in games.iterdir())  # noqa: E731
        before = size()
        talk = "\n".join(f"NOMINATE {'Bruno' * 38}" for _ in range(20))
        for n in range(60):
            play.post(f"stranger{n}", talk)
        play.read()
        assert size() - before < 60 * 400
        before = size()
        play.post("Alice", talk + "\nNOMINATE Bruno")
        play.read()
        assert play.stored_orders(phase)["Alice"] == "NOMINATE Bruno"
        assert size() - before < 3_000
    finally:
        play.close()


def test_t043_a_player_who_has_just_posted_is_not_prodded(tmp_path, thread_forum):
    """Votes in the thread: a cycle of `pbp run` prodded before it read the thread, so a
    player who had just posted (read at the last watch, minutes ago) was prodded. The
    prods read the game's thread first (`ThreadWatch.read_now`, as the cycle passes it)."""
    from pbp.forum.thread.activity import queue_prods

    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf", options={"prod_below": "2@2h"})
    try:
        play.to_day_one()
        play.post("Alice", "One post.")
        play.read()
        play.clock.moment = play.game.clock.deadline - timedelta(hours=1)
        play.post("Alice", "Two posts, just now.")
        done = queue_prods(play.moderator, read_first=play.watch.read_now)
        assert "Alice" not in " ".join(done) and not play.mails("prod", "Alice")
        assert any("Bruno (0 posts)" in line for line in done)
    finally:
        play.close()
