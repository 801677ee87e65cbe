"""Forum accounts a player confirms (pbp.forum.forum_names; docs/design.md: Public posts —
votes in the thread): with no forum name in the roster, each player gets a one-time code
by mail and posts `LINK <code>` in the thread; a code works once, for its player only."""
from __future__ import annotations

import re

import pytest

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
        codes = {row["recipient"]: re.search(r"LINK (\S+)", row["body"]).group(1)
                 for row in play.mails("forum-link")}
        assert set(codes) == set(play.game.record.roster.names)
        play.read()
        assert len(play.mails("forum-link")) == len(codes)  # mailed once
        play.post("mallory", "NOMINATE Chloe")
        play.post("alice_acct", f"Hi, it's me.\nLINK {codes['Alice']}\n**NOMINATE Bruno**")
        play.post("mallory", f"LINK {codes['Alice']}\nNOMINATE Chloe")  # a used code
        play.post("bruno_acct", "LINK abcdefgh\nNOMINATE Chloe")  # a wrong code
        play.post("chloe_acct", f"LINK {codes['Dmitri']}")  # Dmitri's code, posted by someone else first
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
        assert "Your forum account elena_m is linked to Alice in game g1." in " ".join(told["body"].split())
        play.past_deadline()
        play.resolve_due()
        posts = [row["text"] for row in DraftBook(play.game.file).all() if row["phase"].startswith("D1")]
        assert posts and re.search(r"Alice \(elena\\?_m\)", posts[-1]), posts[-1]
    finally:
        play.close()
