"""The thread watch over a real stored Werewolf game, its thread read through the REAL
praw from the local fake Reddit (docs/design.md: Public posts; docs/rules/werewolf.md Day 5, Night:
Howler).

Who is silenced is never in the public view; the watch learns it host-side from the
silenced player's own view, and judges each comment by the game as it stood when the
comment was written."""

from __future__ import annotations

import pytest

from engine.seat_names import player_names
from pbp.forum import hooks
from pbp.storage.drafts import DraftBook
from pbp.forum.reddit import RedditPublisher
from pbp.forum.thread.watch import ThreadWatch, watch_threads
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.host.removal import modkill
from pbp.composition import ComposedModerator
from pbp.game.record_parts import RosterPlayer
from pbp.settings import load_settings

from tests.fixtures.clocks import Clock
from tests.forum.conftest import reddit_settings, reddit_settings_file

pytestmark = pytest.mark.integration
NAMES = player_names(9)


def resolve_until(
    moderator: ComposedModerator, clock: Clock, prefix: str, orders: dict[str, dict[str, str]] = {}
) -> None:
    """Resolve phase after phase (an hour apart) until the open phase starts with `prefix`;
    `orders[phase][player]` are entered before that phase resolves."""
    for _ in range(12):
        game = load(moderator, "ww1")
        if game.phase.id.startswith(prefix):
            return
        with game.file.transaction():
            for player, text in orders.get(game.phase.id, {}).items():
                game.file.orders.insert(
                    {
                        "phase": game.phase.id,
                        "player": player,
                        "text": text,
                        "received": "",
                        "message_id": "",
                        "mail_key": "",
                    }
                )
        clock.tick()
        resolve_phase(moderator, "ww1", game.phase.id)
    raise AssertionError(f"never reached {prefix}")


def test_the_watch_flags_the_silenced_only_on_their_silenced_day_and_the_dead_only_after_death(
    tmp_path, fake_reddit
):
    clock = Clock()
    moderator = ComposedModerator(
        load_settings(str(reddit_settings_file(tmp_path, fake_reddit))), clock=clock
    )
    roster = [RosterPlayer(n, f"{n.lower()}@example.org", "", f"{n.lower()}_r") for n in NAMES]
    with moderator:
        game = create_game(moderator, "werewolf", roster, seed="w7", game_id="ww1")
        with game.file.transaction():
            DraftBook(game.file).update_game_settings({"auto_publish": True})
        roles = {n: game.rules.view(game.state, n)["me"]["role"] for n in NAMES}
        howler = next(n for n in NAMES if roles[n] == "howler")
        quiet, victim = [n for n in NAMES if roles[n] not in ("werewolf", "howler")][:2]
        # Night 1: the Howler silences `quiet` for day 2.
        resolve_until(moderator, clock, "D2", orders={"N1": {howler: f"SILENCE {quiet}"}})
        game = load(moderator, "ww1")
        assert "silenced" not in game.rules.view(game.state, None)  # never public
        assert game.rules.view(game.state, quiet)["me"]["silenced"] is True
        assert hooks.publish_due(moderator) > 0  # the thread exists, with the posts so far
        thread = DraftBook(game.file).game_settings()["thread"]
        # Each turn of `pbp run` watches, reading a thread at most every watch_interval (10 minutes).
        reads = lambda: sum(1 for _, path in fake_reddit.requests if path.startswith("/comments/"))  # noqa: E731
        watch, before = ThreadWatch(), reads()
        assert watch.run(moderator).ran and reads() == before + 1
        assert watch.run(moderator).ran and reads() == before + 1
        clock.tick(11)
        assert watch.run(moderator).ran and reads() == before + 2

        silenced_day = fake_reddit.add_comment(
            thread, "I must speak!", f"{quiet.lower()}_r", clock.tick(5)
        )
        alive_then = fake_reddit.add_comment(
            thread, "Still here", f"{victim.lower()}_r", clock.tick(5)
        )
        clock.tick(5)
        modkill(moderator, "ww1", victim, "left the game")
        after_death = fake_reddit.add_comment(thread, "Boo", f"{victim.lower()}_r", clock.tick(5))
        resolve_until(moderator, clock, "D3")
        next_day = fake_reddit.add_comment(
            thread, "Free to talk again", f"{quiet.lower()}_r", clock.tick(5)
        )
        assert not load(moderator, "ww1").rules.view(load(moderator, "ww1").state, quiet)["me"][
            "silenced"
        ]

        # One read, days later: each comment is judged by when it was written.
        warnings = watch_threads(moderator, RedditPublisher(reddit_settings(fake_reddit)))
        assert warnings == [
            f"[ww1] {quiet} (u/{quiet.lower()}_r) posted in the thread although they were silenced for the day "
            f"(phase D2-nominate) (comment {silenced_day.fullname}).",
            f"[ww1] {victim} (u/{victim.lower()}_r) posted in the thread although they are dead "
            f"(comment {after_death.fullname}).",
        ]
        assert alive_then.fullname not in " ".join(warnings) and next_day.fullname not in " ".join(
            warnings
        )
        settings = DraftBook(load(moderator, "ww1").file).game_settings()
        assert settings["warnings"] == warnings  # for `pbp status`
        # Read again: nothing new, nothing warned twice.
        assert watch_threads(moderator, RedditPublisher(reddit_settings(fake_reddit))) == []
