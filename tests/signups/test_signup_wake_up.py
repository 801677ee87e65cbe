"""`pbp run` wakes up at a sign-up's closing time (docs/design.md: Sign-ups and spectators; Many games): the
closing times of the games open for sign-ups count among the daemon's wake-ups, with a
clock the test moves (no waiting)."""

from __future__ import annotations

from datetime import timedelta

from pbp.composition import ComposedModerator
from pbp.game.create import create_game
from pbp.game.record_parts import RosterPlayer
from pbp.settings import Settings
from pbp.signups.opening import open_for_signups
from pbp.signups.starting import start_due
from pbp.daemon.wake_up import next_wake_up
from tests.fixtures.clocks import Clock

PLAYERS = [
    RosterPlayer(name, f"{name.lower()}@example.org")
    for name in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")
]


def test_the_next_wake_up_is_the_earliest_sign_up_closing_until_the_cycle_has_seen_to_it(tmp_path):
    clock = Clock()
    settings = Settings(
        data=tmp_path / "data", from_address="pbp@games.example", poll_interval=86400
    )
    with ComposedModerator(settings, clock=clock) as moderator:
        create_game(
            moderator,
            "infiltration",
            PLAYERS,
            seed="s1",
            game_id="g1",
            schedule_text="default=1d",
            options={"reminders": "off"},
        )
        open_for_signups(moderator, "ww3", "werewolf", "8..8", "2h", seed="5")
        open_for_signups(moderator, "ww4", "werewolf", "8..8", "3h", seed="6")
        wake = next_wake_up(moderator.folder, clock())
        assert (wake.when, wake.reason) == (clock() + timedelta(hours=2), "sign-ups of ww3 close")

        clock.advance(hours=2, seconds=1)
        assert start_due(moderator) == ["Game ww3 closed with 0 of 8 players; the host is told."]
        wake = next_wake_up(moderator.folder, clock())  # ww3 waits for the host now
        assert (wake.when, wake.reason) == (
            clock() + timedelta(minutes=59, seconds=59),
            "sign-ups of ww4 close",
        )

        clock.advance(hours=1)
        start_due(moderator)
        wake = next_wake_up(moderator.folder, clock())
        assert wake.reason == "deadline of g1 T0-class"
