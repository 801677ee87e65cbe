"""Every mail that sends a player to the game's thread gives its address, once the thread
exists (docs/design.md: Public posts — votes in the thread): the form's thread section,
the LINK code mail and the prod. A phone user taps it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbp.desk import Desk
from pbp.forum.thread.activity import queue_prods
from pbp.storage.drafts import PUBLISHED, DraftBook
from tests.fixtures.harness import command_mail
from tests.forum.thread_play import ThreadPlay

pytestmark = pytest.mark.integration


def _thread_address(play: ThreadPlay) -> str:
    rows = [row for row in DraftBook(play.game.file).all() if row.status == PUBLISHED and row.url]
    return rows[0].url


def test_the_form_the_link_code_and_the_prod_give_the_threads_address(tmp_path, thread_forum):
    play = ThreadPlay.start(
        thread_forum, tmp_path, "werewolf", forum_names=False, options={"prod_below": "2@12h"}
    )
    try:
        play.to_day_one()
        address = _thread_address(play)
        before = len(play.game.file.outbox.all())
        for name in play.game.record.roster.names:
            Desk(play.moderator).receive(command_mail(f"{name.lower()}@example.org", "FORM g1"))
        forms = [
            row["body"]
            for row in play.game.file.outbox.all()[before:]
            if "in the game's public thread" in row["body"]
        ]
        assert forms and all(f"The thread: {address}" in form for form in forms)
        play.read()
        assert f"The thread: {address}" in play.mails("forum-link", "Alice")[-1]["body"]
        play.clock.moment = play.game.clock.deadline - timedelta(hours=6)
        assert queue_prods(play.moderator)
        assert f"The thread: {address}" in play.mails("prod", "Alice")[-1]["body"]
    finally:
        play.close()
