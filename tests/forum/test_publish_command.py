"""`pbp publish` run as its own process, publishing to the local fake Reddit through the
REAL praw, configured as a host would: `[forum] publisher = reddit` and `[reddit]` in the
settings file (docs/design.md: Public posts; "a full game's posts published in order", "a
SIGKILL right after the server accepted the post ... yield exactly one post")."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from pbp.cli import main
from pbp.storage.drafts import APPROVED, PUBLISHED, DraftBook

from tests.forum.conftest import ROSTER, reddit_settings_file, stored

pytestmark = pytest.mark.integration
PHASES = 5
POSTS = PHASES + 1  # the opening post, then one per resolved phase


@pytest.fixture
def reddit_game(tmp_path, fake_reddit, monkeypatch, capsys, request):
    """An Infiltration game with `PHASES` resolved phases, every draft approved (auto-publish;
    the opening post by hand),
    nothing published yet; its settings file points at the fake Reddit."""
    mode = getattr(request, "param", "thread")
    settings = reddit_settings_file(tmp_path, fake_reddit, mode=mode)
    monkeypatch.setenv("PBP_SETTINGS", str(settings))
    (tmp_path / "roster.csv").write_text(ROSTER)
    assert (
        main(
            [
                "new-game",
                "--ruleset",
                "infiltration",
                "--roster",
                str(tmp_path / "roster.csv"),
                "--id",
                "inf1",
                "--seed",
                "7",
                "--no-send",
            ]
        )
        == 0
    )
    assert main(["draft", "settings", "inf1", "--auto-publish", "on"]) == 0
    assert (
        main(["draft", "approve", "inf1", "opening"]) == 0
    )  # drafted with the game, before auto-publish
    for _ in range(PHASES):
        assert main(["advance", "inf1"]) == 0
    capsys.readouterr()
    moderator, game = stored(tmp_path)
    with moderator:
        rows = DraftBook(game.file).all()
    assert len(rows) == POSTS and all(r.status == APPROVED for r in rows)
    return tmp_path, [r.phase for r in rows]


def pbp_publish(folder, **env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pbp", "publish", "--settings", str(folder / "pbp.ini")],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def phase_of(body: str) -> str:
    return re.search(r"pbp:inf1:([^:]+):", body).group(1)


@pytest.mark.parametrize("reddit_game", ["thread"], indirect=True)
def test_pbp_publish_puts_a_games_posts_in_one_thread_in_order(reddit_game, fake_reddit):
    folder, order = reddit_game
    done = pbp_publish(folder)
    assert done.returncode == 0, done.stderr
    assert f"Published {POSTS} post(s)." in done.stdout
    (thread,) = fake_reddit.submissions()
    assert thread.title == "inf1: Infiltration game thread"
    comments = fake_reddit.comments()
    assert [c.link_id for c in comments] == [thread.fullname] * POSTS
    assert [phase_of(c.body) for c in comments] == order
    again = pbp_publish(folder)  # nothing twice
    assert again.returncode == 0 and "Published 0 post(s)." in again.stdout
    assert len(fake_reddit.comments()) == POSTS and len(fake_reddit.submissions()) == 1


@pytest.mark.parametrize("reddit_game", ["posts"], indirect=True)
def test_pbp_publish_makes_a_post_per_phase_in_order(reddit_game, fake_reddit):
    folder, order = reddit_game
    done = pbp_publish(folder)
    assert done.returncode == 0, done.stderr
    posts = fake_reddit.submissions()
    assert [phase_of(p.body) for p in posts] == order
    assert fake_reddit.comments() == []
    moderator, game = stored(folder)
    with moderator:
        # each submission's title: the game, then the post's own title (the turn in words)
        assert [p.title for p in posts] == [f"inf1: {r.title}" for r in DraftBook(game.file).all()]
        assert [p.title for p in posts[:2]] == [
            "inf1: inf1 — a game of Infiltration begins",
            "inf1: Turn 0 — the operation begins",
        ]
        assert [r.ref for r in DraftBook(game.file).all()] == [p.fullname for p in posts]


@pytest.mark.parametrize("reddit_game", ["thread"], indirect=True)
def test_sigkill_of_pbp_publish_right_after_reddit_accepted_a_post_yields_exactly_one_post(
    reddit_game, fake_reddit
):
    folder, order = reddit_game
    killed = pbp_publish(folder, PBP_CRASH_AT="forum-after-post")
    assert killed.returncode == -9, killed.stderr
    assert [phase_of(c.body) for c in fake_reddit.comments()] == order[
        :1
    ]  # Reddit has it; pbp never recorded it
    moderator, game = stored(folder)
    with moderator:
        first = DraftBook(game.file).get(order[0])
        assert (first.status, first.attempts) == (APPROVED, 1)
    restarted = pbp_publish(folder)
    assert restarted.returncode == 0, restarted.stderr
    assert f"Published {POSTS} post(s)." in restarted.stdout  # the first one found by its marker
    assert [phase_of(c.body) for c in fake_reddit.comments()] == order
    assert len(fake_reddit.submissions()) == 1
    moderator, game = stored(folder)
    with moderator:
        assert [r.status for r in DraftBook(game.file).all()] == [PUBLISHED] * POSTS
