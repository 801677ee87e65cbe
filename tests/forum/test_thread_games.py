"""A Werewolf game and an Infiltration game played to the end with `votes = thread`, on
the local Reddit (real praw) and the local Discourse (pbp's real `requests` client): every
nomination and vote is a post in the thread, counted by the thread watch, shown in the
running count pbp publishes there, and resolved after the thread's last read
(docs/design.md: Public posts — votes in the thread)."""

from __future__ import annotations

import re

import pytest

from pbp.forum.publishing import drafting
from pbp.forum.config import load_forum_settings
from pbp.forum.publishing.post_renderer import post_renderer
from pbp.game.tally import has_public_orders, running_tally
from tests.forum.thread_play import GAME, ThreadPlay

pytestmark = pytest.mark.integration

WOLF_SIDE = ("werewolf", "howler")


def _suspects(play: ThreadPlay, ruleset: str) -> list[str]:
    """Who the players vote against: the wolves' side in Werewolf; in Infiltration, the
    first living player (any target ends the game the same)."""
    game = play.game
    dead = game.dead()
    if ruleset == "werewolf":
        return [
            name
            for name in game.record.roster.names
            if name not in dead and game.rules.view(game.state, name)["me"]["role"] in WOLF_SIDE
        ]
    return [name for name in game.record.roster.names if name not in dead]


def _count_words(text: str) -> dict[str, int]:
    """The tally as a resolution's public events or a running count post states it."""
    return {
        choice: int(count) for choice, count in re.findall(r"([A-Z][a-z]+|NO LYNCH) (\d+)", text)
    }


@pytest.mark.parametrize("ruleset", ["werewolf", "infiltration"])
def test_a_game_plays_to_the_end_with_votes_in_the_thread(tmp_path, thread_forum, ruleset):
    """Votes in the thread: with votes = thread the public orders are posts in the
    thread; the running count pbp posts there agrees with the resolution's, and the
    game reaches its end."""
    play = ThreadPlay.start(thread_forum, tmp_path, ruleset)
    try:
        voted_phases = 0
        for _ in range(40):
            game = play.game
            if game.phase is None:
                break
            phase = game.phase
            play.publish()  # the last resolution's post (the first one makes the thread)
            if has_public_orders(game.rules.card, phase):
                suspects = _suspects(play, ruleset)
                for name in phase.actors:
                    spec = next(
                        s
                        for s in phase.grammar.get(name, ())
                        if s.keyword in game.rules.card.public_orders
                    )
                    choice = next((c for c in suspects if c in spec.choices), spec.choices[0])
                    play.post(
                        name, f"I am sure now.\n\n**{spec.keyword.lower()} {choice}**\n\nSee you."
                    )
                play.read()
                game = play.game
                rows = game.file.orders.where("phase", phase.id)
                assert rows and {row.get("source") for row in rows} == {"thread"}
                assert all(row["post_url"] for row in rows)
                expected = running_tally(game)
                assert expected is not None and sum(
                    row["count"] for row in expected["rows"]
                ) == len(phase.actors)
                with game.file.transaction():
                    drafting.draft_tally(
                        post_renderer(play.moderator.renderer),
                        load_forum_settings(play.moderator.settings),
                        game,
                        play.moderator.clock(),
                    )
                assert play.publish() == 1
                posted = thread_forum.published()[-1]
                for row in expected["rows"]:
                    assert f"{row['choice']}" in posted and f": {row['count']} (" in posted
                voted_phases += 1
            play.past_deadline()
            (summary,) = play.resolve_due()
            assert summary.phase == phase.id
            if has_public_orders(game.rules.card, phase) and ruleset == "werewolf":
                said = _count_words(
                    " ".join(
                        line.split("Tally:", 1)[1].split(".")[0]  # the tally, not "Day 1"
                        for line in summary.public
                        if "Tally:" in line
                    )
                )
                assert said == {row["choice"]: row["count"] for row in expected["rows"]}
            elif has_public_orders(game.rules.card, phase):  # Infiltration lists each vote by name
                told = " ".join(summary.public)
                for row in rows:
                    choice = row["text"].split(maxsplit=1)[1]
                    assert f"{row['player']} voted {choice}" in told, (row, told)
        assert play.game.phase is None, "the game did not end"
        assert play.game.record.result is not None
        assert voted_phases >= 2
    finally:
        play.close()
