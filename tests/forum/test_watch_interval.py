"""How often the daemon reads Reddit (docs/design.md: Public posts, thread watch): one
thread watch, run by every cycle, reads each game's thread at most once per `[forum]
watch_interval` seconds, whatever the poll interval. Counted on the local fake Reddit's
read requests over scripted cycles with the moderator's clock moved by the test."""

from __future__ import annotations

import configparser
from datetime import datetime, timedelta, timezone

import pytest

from engine.seat_names import player_names
from pbp.composition import ComposedModerator
from pbp.daemon.cycle import Cycle
from pbp.storage.drafts import DraftBook
from pbp.forum.thread.watch import ThreadWatch
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.game.record_parts import RosterPlayer
from pbp.settings import load_settings
from pbp.mail.transport import open_mailbox, open_sender

from .conftest import reddit_settings_file

pytestmark = pytest.mark.integration
POLL_SECONDS = 60  # the daemon's poll interval: one cycle a minute
WATCH_SECONDS = 300


def test_reddit_is_read_once_per_watch_interval_not_once_per_poll(tmp_path, fake_reddit):
    settings_file = reddit_settings_file(tmp_path, fake_reddit)
    config = configparser.ConfigParser(interpolation=None)
    config.read(settings_file)
    config["forum"]["watch_interval"] = str(WATCH_SECONDS)
    with open(settings_file, "w") as handle:
        config.write(handle)
    now = [datetime(2030, 1, 1, 12, 0, tzinfo=timezone.utc)]
    names = player_names(9)
    roster = [RosterPlayer(n, f"{n.lower()}@example.org", "", f"{n.lower()}_r") for n in names]
    with ComposedModerator(load_settings(str(settings_file)), clock=lambda: now[0]) as moderator:
        game = create_game(
            moderator, "werewolf", roster, seed="w7", game_id="ww1", schedule_text="default=1d"
        )
        with game.file.transaction():
            DraftBook(game.file).update_game_settings({"auto_publish": True})
        resolve_phase(moderator, "ww1", game.phase.id)  # a public post to publish: the thread
        reads = lambda: sum(1 for _, path in fake_reddit.requests if path.startswith("/comments/"))  # noqa: E731
        watch = ThreadWatch()
        cycle = Cycle(
            moderator,
            open_mailbox(moderator.settings),
            open_sender(moderator.settings),
            watch=watch,
        )
        try:
            first = cycle.turn()
            assert first.watch.ran and not first.watch.error
            assert DraftBook(load(moderator, "ww1").file).game_settings()[
                "thread"
            ]  # published by the turn
            after_first = reads()
            read_at = []
            for minute in range(1, 30):  # 29 more cycles, a minute apart: 30 minutes in all
                now[0] += timedelta(seconds=POLL_SECONDS)
                before = reads()
                assert not cycle.turn().watch.error
                if reads() > before:
                    read_at.append(minute)
        finally:
            cycle.close()
    assert read_at == [5, 10, 15, 20, 25]  # every WATCH_SECONDS, never at a poll in between
    assert reads() == after_first + 5
