"""An entry of the index of wake-ups read past the storage edge is an `IndexEntry`
(docs/design.md: Typed rows): what `game_index.json` stores, the index's own keys (stamp,
changed) and the chores already seen to included, comes back unchanged through `from_row`
and `to_row`, so typing the entries changed nothing on disk; `entry_of` computes one, and
the questions a cycle asks (`due`) read its fields."""

from __future__ import annotations

from pbp.composition import ComposedModerator
from pbp.daemon.run import Daemon
from pbp.game.create import create_game
from pbp.game.index_entry import entry_of
from pbp.game.stored import load
from pbp.settings import Settings
from pbp.storage.index_moments import IndexEntry, chore_due
from tests.fixtures.clocks import Clock
from tests.storage.test_game_index import PLAYERS, stored_index


def test_every_stored_entry_comes_back_unchanged_through_the_typed_entry(tmp_path):
    clock = Clock()
    settings = Settings(data=tmp_path / "data", from_address="pbp@games.example")
    with ComposedModerator(settings, clock=clock) as moderator:
        for game_id in ("r1", "r2"):
            create_game(
                moderator,
                "infiltration",
                PLAYERS,
                seed="r",
                game_id=game_id,
                schedule_text="default=2h",
                options={"reminders": "1h"},
            )
    daemon = Daemon(lambda: settings, clock=clock)
    daemon.turn()  # the index is rebuilt when `pbp run` starts
    daemon.turn()
    clock.advance(hours=1, seconds=1)
    daemon.turn()  # the reminders go out: seen to
    _, entries = stored_index(settings)
    assert set(entries) == {"r1", "r2"} and "reminded" in entries["r1"]
    for row in entries.values():
        assert IndexEntry.from_row(row).to_row() == row
    entry = IndexEntry.from_row(entries["r1"])
    assert entry.clock == "running" and entry.deadline is not None and entry.reminders
    assert entry.seen["reminded"] == clock().timestamp()
    assert not chore_due(entry, clock().timestamp(), "reminders")  # seen to already
    with ComposedModerator(settings, clock=clock) as moderator:
        computed = entry_of(load(moderator, "r1").file)
    assert (computed.phase, computed.deadline, computed.reminders) == (
        entry.phase,
        entry.deadline,
        entry.reminders,
    )
    assert computed.seen == {} and computed.extra == {}  # the index adds its own keys
