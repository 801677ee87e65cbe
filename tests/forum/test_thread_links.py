"""Forum accounts a player confirms (pbp.forum.thread.forum_names; docs/design.md: Public posts —
votes in the thread): with no forum name in the roster, each player gets a one-time code
by mail and posts `LINK <code>` in the thread; a code works once, for its player only."""

from __future__ import annotations

import re

import pytest

from pbp.forum.thread.forum_names import identities
from pbp.storage.drafts import DraftBook
from tests.forum.thread_play import ThreadPlay

pytestmark = pytest.mark.integration


def test_t016_a_link_code_confirms_an_account_once_and_for_its_player_only(tmp_path, thread_forum):
    """Votes in the thread: a forum name counts only when the host wrote it or the
    player confirmed it with the code pbp mailed them; nobody can vote as someone
    else by claiming a name."""
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf", forum_names=False)
    try:
        phase = play.to_day_one()
        play.read()
        codes = {
            row["recipient"]: re.search(r"LINK (\S+)", row["body"]).group(1)
            for row in play.mails("forum-link")
        }
        assert set(codes) == set(play.game.record.roster.names)
        play.read()
        assert len(play.mails("forum-link")) == len(codes)  # mailed once
        play.post("mallory", "NOMINATE Chloe")
        play.post("alice_acct", f"Hi, it's me.\nLINK {codes['Alice']}\n**NOMINATE Bruno**")
        play.post("bruno_acct", "LINK abcdefgh\nNOMINATE Chloe")  # a wrong code
        play.post(
            "chloe_acct", f"LINK {codes['Dmitri']}"
        )  # Dmitri's code, posted by someone else first
        play.read()
        play.post("mallory", f"LINK {codes['Alice']}\nNOMINATE Chloe")  # a used code
        play.read()
        assert play.stored_orders(phase) == {"Alice": "NOMINATE Bruno"}
        play.post("chloe_acct", "NOMINATE Elena")
        play.read()
        # the code is Dmitri's: whoever posts it first stands for him (keep it secret, the mail says)
        assert play.stored_orders(phase)["Dmitri"] == "NOMINATE Elena"
        play.post("dmitri_acct", f"LINK {codes['Dmitri']}\nNOMINATE Farid")
        play.read()
        assert play.stored_orders(phase)["Dmitri"] == "NOMINATE Elena"
    finally:
        play.close()


def _codes(play: ThreadPlay) -> dict[str, str]:
    return {
        row["recipient"]: re.search(r"LINK (\S+)", row["body"]).group(1)
        for row in play.mails("forum-link")
    }


def test_t040_a_code_added_to_an_older_post_does_not_steal_the_link(tmp_path, thread_forum):
    """Votes in the thread (attack: LINK code stolen by an edit): once the owner posts
    their code, a thief who copies it into one of their own earlier posts before pbp's
    next read gets nothing. A code counts from the revision in which it first appeared;
    two accounts with one code in one read link neither, the player gets a new code and
    the host is told."""
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf", forum_names=False)
    try:
        phase = play.to_day_one()
        play.read()
        code = _codes(play)["Alice"]
        older = play.post("mallory", "Good morning, village.")
        play.read()
        play.post("alice_acct", f"LINK {code}\nNOMINATE Bruno")
        play.forum.edit(
            older, f"Good morning, village.\nLINK {code}\nNOMINATE Chloe", play.clock.tick(1)
        )
        play.read()
        assert "Alice" not in play.stored_orders(phase)
        notes = " ".join(
            " ".join(row["body"] for row in play.mails("thread-notes", "host")).split()
        )
        assert "Alice" in notes and "mallory" in notes and "new code" in notes
        play.read()
        new = [row for row in play.mails("forum-link", "Alice")]
        assert len(new) == 2 and code not in new[-1]["body"]
        fresh = re.search(r"LINK (\S+)", new[-1]["body"]).group(1)
        play.post("mallory", f"LINK {code}\nNOMINATE Chloe")  # the burnt code is nobody's now
        play.post("alice_acct", f"LINK {fresh}\nNOMINATE Bruno")
        play.read()
        assert play.stored_orders(phase) == {"Alice": "NOMINATE Bruno"}
    finally:
        play.close()


def test_t041_a_link_counts_from_the_edit_that_added_it(tmp_path, thread_forum):
    """Votes in the thread: a code edited into an older post links its account from the
    edit, not from the post's creation, so the older post's vote is not the player's."""
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf", forum_names=False)
    try:
        play.to_day_one()
        play.read()
        code = _codes(play)["Bruno"]
        older = play.post("bruno_acct", "NOMINATE Chloe")
        created = play.clock.moment.timestamp()
        play.read()
        play.forum.edit(older, f"LINK {code}\nNOMINATE Chloe", play.clock.tick(1))
        play.read()
        known = identities(play.game)
        assert known.player_at("bruno_acct", created) is None
        assert known.player_at("bruno_acct", play.clock.moment.timestamp()) == "Bruno"
    finally:
        play.close()


def test_t044_pbp_publish_reads_the_thread_on_every_forum(
    tmp_path, thread_forum, monkeypatch, capsys
):
    """Public posts: `pbp publish` reads the threads at once, on every forum that has
    them (it read only Reddit's): a vote posted on Discourse counts after `pbp publish`."""
    from pbp.cli import main

    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf")
    try:
        phase = play.to_day_one()
        play.post("Alice", "NOMINATE Bruno")
        play.clock.tick(11)
    finally:
        play.close()
    monkeypatch.setenv("PBP_SETTINGS", str(tmp_path / "pbp.ini"))
    assert main(["publish", "g1"]) == 0
    assert "Thread watch:" in capsys.readouterr().out
    from pbp.composition import ComposedModerator
    from pbp.game.stored import load
    from pbp.settings import load_settings

    with ComposedModerator(load_settings(str(tmp_path / "pbp.ini"))) as moderator:
        game = load(moderator, "g1")
        assert {player: row.text for player, row in game.latest_orders(phase).items()} == {
            "Alice": "NOMINATE Bruno"
        }


def test_a_link_is_confirmed_by_mail_and_the_account_shown_beside_the_name(tmp_path, thread_forum):
    """Once `LINK <code>` ties an account to a player, the player is told so by mail, once,
    and the game's posts show that account beside the name, as they show a roster's."""
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf", forum_names=False)
    try:
        play.to_day_one()
        play.read()
        code = re.search(r"LINK (\S+)", play.mails("forum-link", "Alice")[-1]["body"]).group(1)
        play.post("elena_m", f"Hello!\nLINK {code}")
        play.read()
        play.read()
        (told,) = play.mails("forum-linked", "Alice")
        assert "Your forum account elena_m is linked to Alice in game g1." in " ".join(
            told["body"].split()
        )
        play.past_deadline()
        play.resolve_due()
        posts = [row.text for row in DraftBook(play.game.file).all() if row.phase.startswith("D1")]
        assert posts and re.search(r"Alice \(elena\\?_m\)", posts[-1]), posts[-1]
    finally:
        play.close()
