"""The index of deadlines and wake-ups (docs/design.md: Many games): a daemon cycle with
nothing to do opens no game file, a due game is found among many and resolved opening
only its own file, and an index that is missing, left unclean by a crash, or stale
never makes a due game wait."""

from __future__ import annotations

import json
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from pbp.daemon.run import Daemon
from pbp.storage.datafolder import DataFolder
from pbp.game.create import create_game
from pbp.game.deadlines import extend
from pbp.game.stored import load
from pbp.storage.game_index import FILE_NAME, UNCLEAN_MARK, GameIndex
from pbp.composition import ComposedModerator
from pbp.game.record_parts import RosterPlayer
from pbp.settings import Settings
from pbp.daemon.wake_up import next_wake_up
from tests.fixtures.clocks import Clock

PLAYERS = [
    RosterPlayer(name, f"{name.lower()}@example.org")
    for name in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")
]
GAMES = 12


class FileOpens:
    """Every file this process opens under a folder while `watching` (a Python audit
    hook sees each `open`, whichever library opens the file)."""

    def __init__(self) -> None:
        self.folder: Path | None = None
        self.paths: list[str] = []
        sys.addaudithook(self._hook)

    def _hook(self, event: str, args: tuple) -> None:
        if event == "open" and self.folder is not None and isinstance(args[0], (str, Path)):
            if str(args[0]).startswith(f"{self.folder}/"):  # a file in it (not the folder, fsynced)
                self.paths.append(Path(args[0]).name)

    def watching(self, folder: Path) -> "FileOpens":
        self.folder, self.paths = folder, []
        return self

    def __enter__(self) -> list[str]:
        return self.paths

    def __exit__(self, *exc) -> None:
        self.folder = None


OPENS = FileOpens()  # audit hooks cannot be removed: one for the whole test session


@pytest.fixture
def site(tmp_path: Path):
    """A data folder with GAMES running Infiltration games; game `g1` has the earliest
    deadline (1 hour), the others a day. A daemon (not started: its cycles are called)."""
    clock = Clock()
    settings = Settings(
        data=tmp_path / "data", from_address="pbp@games.example", poll_interval=86400
    )
    with ComposedModerator(settings, clock=clock) as moderator:
        for number in range(1, GAMES + 1):
            create_game(
                moderator,
                "infiltration",
                PLAYERS,
                seed=f"s{number}",
                game_id=f"g{number}",
                schedule_text="default=1h" if number == 1 else "default=1d",
                options={"reminders": "off"},
            )
    daemon = Daemon(lambda: settings, clock=clock)
    daemon.turn()  # start-up: the index rebuilt, the welcome mails sent
    daemon.turn()  # looks once more at the games the first cycle wrote
    return settings, clock, daemon


def game_files(paths: list[str]) -> set[str]:
    return {name.split(".")[0] for name in paths if name.startswith("g")}


def stored_index(settings: Settings) -> tuple[dict, dict]:
    """The index file's two lines: its summary and its entries."""
    summary, entries = (settings.data / FILE_NAME).read_bytes().split(b"\n")
    return json.loads(summary), json.loads(entries)


def in_minutes(clock: Clock, minutes: int) -> str:
    """An absolute deadline for `pbp extend`, `minutes` from now."""
    return (clock() + timedelta(minutes=minutes)).strftime("%Y-%m-%d %H:%M UTC")


def record(settings: Settings, game_id: str) -> dict:
    with DataFolder(settings.data, writer=False) as folder:
        return folder.game(game_id).record()


def test_an_idle_cycle_opens_no_game_file(site):
    settings, clock, daemon = site
    clock.advance(minutes=30)
    with OPENS.watching(settings.data / "games") as opened:
        daemon.turn()
        daemon.notice_changes()
    assert opened == []
    assert (
        daemon.state["next_reason"] == "deadline of g1 T0-class" and not daemon.state["last_error"]
    )


def test_a_due_game_among_many_is_resolved_opening_its_file_alone(site):
    settings, clock, daemon = site
    clock.advance(hours=1, seconds=1)
    with OPENS.watching(settings.data / "games") as opened:
        daemon.turn()
    assert record(settings, "g1")["resolved"] == ["T0-class"]
    assert game_files(opened) == {"g1"}
    assert all(record(settings, f"g{n}")["resolved"] == [] for n in range(2, GAMES + 1))
    daemon.turn()  # the game the cycle wrote is looked at once more; then all is quiet again
    with OPENS.watching(settings.data / "games") as opened:
        daemon.turn()
    assert opened == []


def test_a_host_change_moves_the_wake_up_and_the_resolution(site):
    """A deadline moved earlier by the host (here g5's, to 10 minutes from now) is due then."""
    settings, clock, daemon = site
    with ComposedModerator(settings, clock=clock) as moderator:
        extend(moderator, "g5", in_minutes(clock, 10))
    with (
        OPENS.watching(settings.data / "games") as opened,
        DataFolder(settings.data, writer=False) as folder,
    ):
        wake = next_wake_up(
            folder, clock()
        )  # as the daemon reads it between cycles, without the lock
    assert wake.reason == "deadline of g5 T0-class" and opened == []
    clock.advance(minutes=10, seconds=1)
    daemon.turn()
    assert record(settings, "g5")["resolved"] == ["T0-class"]


def crash_before_the_index_is_written(
    monkeypatch, settings: Settings, clock: Clock, game_id: str
) -> None:
    """A host command moves a game's deadline earlier, and the process dies after the
    game file is written and before the index is (the index's last write fails)."""

    def crash(self, folder):
        raise SystemExit("killed")

    monkeypatch.setattr(GameIndex, "save", crash)
    with pytest.raises(SystemExit):
        with ComposedModerator(settings, clock=clock) as moderator:
            extend(moderator, game_id, in_minutes(clock, 5))
    monkeypatch.undo()


def test_a_crash_between_the_game_write_and_the_index_write_never_skips_the_due_game(
    site, monkeypatch
):
    settings, clock, daemon = site
    crash_before_the_index_is_written(monkeypatch, settings, clock, "g7")
    summary, entries = stored_index(settings)
    assert (settings.data / UNCLEAN_MARK).exists()  # made before the game file was opened
    assert entries["g7"]["deadline"] > (clock().timestamp() + 3600)  # the old deadline
    clock.advance(minutes=5, seconds=1)
    daemon.turn()
    assert record(settings, "g7")["resolved"] == ["T0-class"]
    summary, entries = stored_index(settings)
    assert summary["clean"] is True and set(entries) == {f"g{n}" for n in range(1, GAMES + 1)}
    assert not (settings.data / UNCLEAN_MARK).exists()


@pytest.mark.parametrize("damage", ["missing", "garbage", "stale"])
def test_a_missing_or_stale_index_is_rebuilt_and_the_due_game_resolved(site, damage):
    """`stale`: an index that claims to be clean but holds an old deadline (a game file
    restored by hand): the daemon rebuilds the index when it starts."""
    settings, clock, daemon = site
    path = settings.data / FILE_NAME
    before = path.read_bytes()
    with ComposedModerator(settings, clock=clock) as moderator:
        extend(moderator, "g9", in_minutes(clock, 5))
    if damage == "missing":
        path.unlink()
    elif damage == "garbage":
        path.write_text("{not json")
    else:
        path.write_bytes(before)
    clock.advance(minutes=5, seconds=1)
    restarted = Daemon(lambda: settings, clock=clock)
    restarted.turn()
    assert record(settings, "g9")["resolved"] == ["T0-class"]
    entry = stored_index(settings)[1]["g9"]
    with ComposedModerator(settings, clock=clock) as moderator:
        assert entry["deadline"] == load(moderator, "g9").clock.deadline.timestamp()


def test_a_reminder_time_is_found_through_the_index_and_sent_once(tmp_path):
    clock = Clock()
    settings = Settings(
        data=tmp_path / "data", from_address="pbp@games.example", poll_interval=86400
    )
    with ComposedModerator(settings, clock=clock) as moderator:
        create_game(
            moderator,
            "infiltration",
            PLAYERS,
            seed="r",
            game_id="r1",
            schedule_text="default=2h",
            options={"reminders": "1h"},
        )
    daemon = Daemon(lambda: settings, clock=clock)
    daemon.turn()
    daemon.turn()
    assert daemon.state["next_reason"] == "reminders of r1 T0-class"
    clock.advance(hours=1, seconds=1)
    daemon.turn()
    with ComposedModerator(settings, clock=clock) as moderator:
        reminders = [
            row for row in load(moderator, "r1").file.outbox.all() if row["kind"] == "reminder"
        ]
    assert len(reminders) == len(PLAYERS)
    daemon.turn()
    with OPENS.watching(settings.data / "games") as opened:
        daemon.turn()
    assert opened == []
    assert daemon.state["next_reason"] == "deadline of r1 T0-class"
