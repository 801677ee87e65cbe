"""Many-games benchmark: a daemon cycle in a data folder holding 1,000 running games against
the same cycle in a folder holding 1 game.

Run: python3 benchmarks/games.py [--games 1000] [--rounds 7] [--players 10]

Both folders are made from one template: a data folder with one Infiltration game `g1`
(made by `pbp.game.create`, its welcome mails sent by a first cycle). The big folder gets
the other games by copying g1's files under new ids, each with its own id in its record
and a deadline a month later, and registering them in the registry: what `pbp new-game`
writes, without rendering a thousand welcome mails. The index of deadlines and wake-ups
(pbp.storage.game_index) is not copied: the daemon's first cycle builds it, as it does at start.

Two things are measured, rounds alternating between the folders (which goes first
flipping each round), each timed call being `Daemon.turn` exactly as `pbp run` makes it
(lock, settings, mail poll of an empty Maildir, resolution, reminders, sending, the
next wake-up, the state file):

(a) an idle cycle: nothing is due, no mail came (a round's time is the median of
    five idle cycles in a row);
(b) a cycle resolving one due game: g1's deadline has passed (in the big folder, the
    other 999 are not due); the cycle resolves the phase and sends every report to the
    Maildir transport. The clock then moves to the next phase's deadline.

Each measure's ratio (1,000 games over 1) is the median round's; printed last:
(a) must be at most 2, (b) at most 1.5. Exit status: 0 when both hold, 1 when not.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pbp.timezones import as_utc, to_text  # noqa: E402
from pbp.composition import ComposedModerator  # noqa: E402
from pbp.daemon.run import Daemon  # noqa: E402
from pbp.storage.datafolder import DataFolder  # noqa: E402
from pbp.game.create import create_game  # noqa: E402
from pbp.storage.game_index import FILE_NAME as INDEX_FILE  # noqa: E402
from pbp.game.record_parts import RosterPlayer
from pbp.settings import Settings  # noqa: E402

IDLE_RATIO = 2.0
RESOLVE_RATIO = 1.5
IDLE_CYCLES_PER_ROUND = 5
START = as_utc("2030-01-01T12:00:00+00:00")


class Clock:
    """The daemon's clock: a moment this script moves, so no round waits for a deadline."""

    def __init__(self) -> None:
        self.moment = START

    def __call__(self):
        return self.moment


class Site:
    """One data folder and the daemon working on it."""

    def __init__(self, data: Path, games: int):
        self.games = games
        self.clock = Clock()
        self.settings = Settings(data=data, from_address="pbp@games.example", poll_interval=86400)
        self.daemon = Daemon(lambda: self.settings, clock=self.clock)

    def turn(self) -> float:
        started = time.perf_counter()
        self.daemon.turn()
        elapsed = time.perf_counter() - started
        if self.daemon.state["last_error"]:
            raise SystemExit(f"a cycle failed: {self.daemon.state['last_error']}")
        return elapsed

    def deadline_of_g1(self):
        with DataFolder(self.settings.data, writer=False) as folder:
            return as_utc(folder.game("g1").record()["deadline"])


def make_template(data: Path, players: int) -> None:
    roster = [
        RosterPlayer(f"Player{n:02d}", f"player{n:02d}@example.org") for n in range(1, players + 1)
    ]
    settings = Settings(data=data, from_address="pbp@games.example", poll_interval=86400)
    with ComposedModerator(settings, clock=Clock()) as moderator:
        create_game(
            moderator,
            "infiltration",
            roster,
            seed="bench",
            game_id="g1",
            schedule_text="default=1h",
            options={"reminders": "off"},
        )
    Site(data, 1).turn()  # the welcome mails go out


def copy_game(data: Path, number: int, later: timedelta) -> dict:
    """g1's files under the id g<number>, its deadline `later` than g1's; the registry row."""
    games = data / "games"
    new_id = f"g{number}"
    for source in games.glob("g1.*"):
        target = games / f"{new_id}{source.suffix}"
        if source.suffix == ".json":
            tables = json.loads(source.read_text(encoding="utf-8"))
            (record,) = tables["game"].values()
            record["id"] = new_id
            record["deadline"] = to_text(as_utc(record["deadline"]) + later)
            target.write_text(
                json.dumps(tables, ensure_ascii=False, separators=(",", ":")), encoding="utf-8"
            )
        else:
            shutil.copyfile(source, target)
    return {"id": new_id, "ruleset": "infiltration", "created": to_text(START)}


def make_site(template: Path, data: Path, games: int) -> Site:
    shutil.copytree(template, data)
    registry_path = data / "registry.json"
    registry = json.loads(registry_path.read_text(encoding="utf-8"))
    rows = registry.setdefault("games", {})
    next_id = max((int(doc_id) for doc_id in rows), default=0) + 1
    for number in range(2, games + 1):
        rows[str(next_id)] = copy_game(data, number, timedelta(days=30))
        next_id += 1
    registry_path.write_text(json.dumps(registry), encoding="utf-8")
    (data / INDEX_FILE).unlink(missing_ok=True)
    site = Site(data, games)
    site.turn()  # start-up: the index is built from every game file
    site.turn()
    return site


def alternate(sites: list[Site], rounds: int, measure) -> dict[int, list[float]]:
    times: dict[int, list[float]] = {site.games: [] for site in sites}
    for number in range(rounds):
        for site in sites if number % 2 == 0 else sites[::-1]:
            times[site.games].append(measure(site))
    return times


def idle(site: Site) -> float:
    """The median of a few idle cycles in a row: one cycle is short enough for a busy
    machine's noise to swamp it."""
    times = []
    for _ in range(IDLE_CYCLES_PER_ROUND):
        site.clock.moment += timedelta(seconds=1)
        times.append(site.turn())
    return statistics.median(times)


def resolve_one(site: Site) -> float:
    site.clock.moment = site.deadline_of_g1() + timedelta(seconds=1)
    elapsed = site.turn()
    site.turn()  # untimed: the cycle after a resolution looks once more at the game it wrote
    return elapsed


def ratios(times: dict[int, list[float]], many: int) -> list[float]:
    return [big / small for big, small in zip(times[many], times[1])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--players", type=int, default=10)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="pbp-games-"))
    try:
        make_template(root / "template", args.players)
        started = time.perf_counter()
        sites = [
            make_site(root / "template", root / "one", 1),
            make_site(root / "template", root / "many", args.games),
        ]
        print(
            f"data folders with 1 and {args.games} games ready in"
            f" {time.perf_counter() - started:.1f} s"
        )
        idle_times = alternate(sites, args.rounds, idle)
        resolve_times = alternate(sites, args.rounds, resolve_one)
        many = args.games
        for what, times in (
            ("idle cycle", idle_times),
            ("cycle resolving one due game", resolve_times),
        ):
            print(
                f"{what:30} 1 game median {statistics.median(times[1]) * 1000:7.2f} ms   "
                f"{many} games median {statistics.median(times[many]) * 1000:7.2f} ms   "
                f"rounds' ratios {min(ratios(times, many)):.2f}-{max(ratios(times, many)):.2f}"
            )
        verdicts = []
        for what, times, target in (
            ("idle cycle", idle_times, IDLE_RATIO),
            ("resolving one due game", resolve_times, RESOLVE_RATIO),
        ):
            median = statistics.median(ratios(times, many))
            ok = median <= target
            verdicts.append(ok)
            print(
                f"ratio {what} {many} games / 1 game {median:.2f} (need <= {target}):"
                f" {'OK' if ok else 'TOO SLOW'}"
            )
        return 0 if all(verdicts) else 1
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
