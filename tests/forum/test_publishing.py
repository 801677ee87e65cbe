"""Publishing through the REAL praw against the local fake Reddit, and to files (docs/design.md:
Public posts)."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from pbp.game.record_parts import RosterPlayer
from pbp.game.stored import record_of
from pbp.forum.publishing import publish
from pbp.storage.drafts import APPROVED, PUBLISHED, DraftBook
from pbp.forum.publishing.files import FilePublisher
from pbp.forum.publishing.publisher import post_marker
from pbp.forum.reddit import RedditPublisher
from pbp.forum.thread.watch import PhaseFacts, watch_thread
from pbp.storage.datafolder import GameFile

from tests.forum.conftest import reddit_settings
from tests.forum.simulated import drafts_of_game

pytestmark = pytest.mark.integration


class StoredGame:
    """The parts of a stored game (pbp.game.stored.StoredGame) that publishing reads."""

    def __init__(self, path: Path, game_id: str = "inf1"):
        self.file = GameFile(path, writer=True)
        if not self.file.game.all():
            self.file.game.insert(
                {
                    "id": game_id,
                    "ruleset": "infiltration",
                    "seed": "pub",
                    "roster": [],
                    "tokens": {},
                    "schedule": {},
                    "state": {},
                    "phase_id": "",
                    "opened": "",
                    "deadline": "",
                    "resolved": [],
                    "created": "",
                }
            )
        self.id = game_id
        self.record = record_of(self.file)


def approved_game(path: Path, phases: int | None = None) -> tuple[StoredGame, list[str]]:
    """A stored game holding every post of one scripted Infiltration game, approved."""
    game = StoredGame(path)
    book = DraftBook(game.file)
    order = []
    for phase, draft, _check in drafts_of_game(
        engine.ruleset("infiltration"), "infiltration", 10, "pub/1"
    ):
        book.save_generated(phase, draft.title, draft.text, draft.player_spans, "markdown", [])
        book.update(phase, {"status": APPROVED, "marker": post_marker(game.id, phase, draft.text)})
        order.append(phase)
        if phases and len(order) == phases:
            break
    return game, order


def test_a_full_games_posts_are_published_in_order_in_one_thread(tmp_path, fake_reddit):
    game, order = approved_game(tmp_path / "inf1.json")
    publisher = RedditPublisher(reddit_settings(fake_reddit))
    done = publish.publish_game(game, publisher)
    assert [row.phase for row in done] == order
    (thread,) = fake_reddit.submissions()
    comments = fake_reddit.comments()
    assert [c.link_id for c in comments] == [thread.fullname] * len(order)
    assert [c.body.split("pbp:inf1:")[1].split(":")[0] for c in comments] == order
    assert all(row.status == PUBLISHED for row in DraftBook(game.file).all())
    assert publish.publish_game(game, publisher) == []  # nothing twice
    assert len(fake_reddit.comments()) == len(order)


def test_posts_mode_makes_one_submission_per_phase_and_waits_for_unapproved(tmp_path, fake_reddit):
    game, order = approved_game(tmp_path / "inf1.json", phases=3)
    DraftBook(game.file).update(order[1], {"status": "draft"})
    done = publish.publish_game(game, RedditPublisher(reddit_settings(fake_reddit, mode="posts")))
    assert [row.phase for row in done] == order[:1]  # the third waits for the second
    assert [s.title for s in fake_reddit.submissions()] == [
        f"inf1: {DraftBook(game.file).get(order[0]).title}"
    ]


@pytest.mark.parametrize("fault", ["hold", "drop", "503", "ratelimit"])
def test_a_fault_while_posting_is_retried_later_and_yields_exactly_one_post(
    tmp_path, fake_reddit, fault
):
    game, order = approved_game(tmp_path / "inf1.json", phases=2)
    publisher = RedditPublisher(reddit_settings(fake_reddit, mode="posts"))
    fake_reddit.fail_next(fault, path="/api/submit")
    clock = [1000.0]
    assert publish.publish_game(game, publisher, now=lambda: clock[0]) == []
    fake_reddit.release()  # a held answer comes after the client gave up: it changes nothing
    row = DraftBook(game.file).get(order[0])
    assert row.status == APPROVED and row.error and row.next_try == 1060.0
    committed = 1 if fault in ("hold", "drop") else 0  # these commit, then give no answer
    assert len(fake_reddit.submissions()) == committed
    assert publish.publish_game(game, publisher, now=lambda: clock[0]) == []  # not before its time
    clock[0] = 1061.0
    done = publish.publish_game(game, publisher, now=lambda: clock[0])
    assert [row.phase for row in done] == order
    titles = [s.title for s in fake_reddit.submissions()]
    assert titles.count(f"inf1: {row.title}") == 1 and len(titles) == 2


def test_faults_are_taken_by_count(tmp_path, fake_reddit):
    """Three 503s in a row: three tries fail, the fourth posts once."""
    game, order = approved_game(tmp_path / "inf1.json", phases=1)
    publisher = RedditPublisher(reddit_settings(fake_reddit, mode="posts"))
    fake_reddit.fail_next("503", path="/api/submit", count=3)
    clock = [1000.0]
    for _ in range(3):
        assert publish.publish_game(game, publisher, now=lambda: clock[0]) == []
        clock[0] = DraftBook(game.file).get(order[0]).next_try + 1
    assert [
        row.phase for row in publish.publish_game(game, publisher, now=lambda: clock[0])
    ] == order
    assert len(fake_reddit.submissions()) == 1


def test_file_publisher_writes_one_file_per_post_in_order_and_is_idempotent(tmp_path):
    game, order = approved_game(tmp_path / "inf1.json", phases=4)
    publisher = FilePublisher(tmp_path / "posts")
    assert len(publish.publish_game(game, publisher)) == 4
    files = sorted((tmp_path / "posts" / "inf1").iterdir())
    assert [f.name for f in files] == [f"{i + 1:03d}-{p}.md" for i, p in enumerate(order)]
    assert all(DraftBook(game.file).get(p).marker in f.read_text() for p, f in zip(order, files))
    DraftBook(game.file).update(order[0], {"status": APPROVED, "attempts": 1})
    publish.publish_game(game, publisher)
    assert len(list((tmp_path / "posts" / "inf1").iterdir())) == 4


def test_thread_watch_flags_a_dead_players_comment_by_when_it_was_written(tmp_path, fake_reddit):
    game, _order = approved_game(tmp_path / "inf1.json", phases=1)
    publisher = RedditPublisher(reddit_settings(fake_reddit))
    publish.publish_game(game, publisher)
    thread = DraftBook(game.file).game_settings()["thread"]
    fake_reddit.add_comment(thread, "Before my death", author="bruno_r", created_utc=1500.0)
    fake_reddit.add_comment(thread, "I am alive and well", author="alice_r", created_utc=2500.0)
    fake_reddit.add_comment(
        thread, "Psst, from beyond the grave", author="bruno_r", created_utc=2600.0
    )
    roster = [
        RosterPlayer("Alice", "alice@example.org", forum_name="alice_r"),
        RosterPlayer("Bruno", "bruno@example.org", forum_name="Bruno_R"),
    ]
    timeline = [
        PhaseFacts("T1-movement", 1000.0),
        PhaseFacts("T1-decision", 2000.0, dead=frozenset({"Bruno"})),
    ]
    comments = [post.as_comment() for post in publisher.thread_posts(thread) if not post.by_us]
    warnings = watch_thread(comments, roster, timeline)
    assert [(w.player, w.why) for w in warnings] == [("Bruno", "they are dead")]
    assert warnings[0].comment == comments[2]["id"]
    assert "Bruno (u/bruno_r) posted in the thread although they are dead" in str(warnings[0])
    assert watch_thread(comments, roster, timeline, seen=[c["id"] for c in comments]) == []
