"""Backup benchmark: does `pbp backup` cost about what `tar czf` of the same folder does?

Run: python3 benchmarks/backup.py [--games 100] [--late-phase 60] [--players 8] [--rounds 3]

It plays one Infiltration game of `--players` players to its `--late-phase`th phase the way
benchmarks/storage.py does (every awaited player mails orders, pbp ingests them, resolves,
sends every report; the embedded Maildir transport, no servers), then fills the data folder
with `--games` games at that phase: byte copies of the played game's files, each renamed to
an id of the same length and listed in the registry, which is all a backup reads. It then
times, alternating, `pbp backup` (a new process, as a host runs it) and `tar czf` of the
same folder, and prints both medians and their ratio (at most 1.5 wanted).

Exit status: 0 when the ratio holds, 1 when it does not.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
# As in benchmarks/storage.py: this folder first on the path would hide the real `engine`.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
sys.path.insert(0, str(REPO))

from benchmarks.in_process import quiet_pbp  # noqa: E402
from benchmarks.storage import GAME, make_site, open_phase_number, play_phase  # noqa: E402

ALLOWED_RATIO = 1.5


def game_ids(count: int) -> list[str]:
    """`count` ids as long as the played game's ("g1"), so a renamed copy keeps its offsets."""
    ids = [letter + digit for letter in string.ascii_lowercase for digit in string.digits]
    return ids[:count]


def fill(data: Path, count: int) -> None:
    """Replace the played game by `count` copies of it under other ids."""
    games = data / "games"
    played = {
        suffix: (games / f"{GAME}{suffix}").read_bytes()
        for suffix in (".json", ".journal", ".texts")
    }
    registry = json.loads((data / "registry.json").read_text(encoding="utf-8"))
    (row,) = registry["games"].values()
    registry["games"] = {}
    for number, game_id in enumerate(game_ids(count), start=1):
        for suffix, content in played.items():
            (games / f"{game_id}{suffix}").write_bytes(
                content.replace(GAME.encode(), game_id.encode())
            )
        registry["games"][str(number)] = {**row, "id": game_id}
    for suffix in played:
        if GAME not in game_ids(count):
            (games / f"{GAME}{suffix}").unlink()
    (data / "registry.json").write_text(json.dumps(registry), encoding="utf-8")


def timed(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    # This checkout's pbp, whatever is installed.
    done = subprocess.run(
        command,
        cwd=cwd,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        },
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {done.stdout}{done.stderr}")
    return seconds


def run(games: int, players: int, late_phase: int, rounds: int) -> bool:
    workspace = Path(tempfile.mkdtemp(prefix="pbp-backup-"))
    try:
        site = workspace / "site"
        settings = make_site(site, players, late_phase)
        started, mails = time.perf_counter(), 0
        while open_phase_number(settings) < late_phase:
            mails = play_phase(settings, mails)
        fill(site / "data", games)
        size = sum(path.stat().st_size for path in (site / "data").rglob("*") if path.is_file())
        print(
            f"setup     {games} Infiltration games of {players} players at phase {late_phase} "
            f"({size / 1e6:.1f} MB) in {time.perf_counter() - started:.0f} s; {rounds} rounds"
        )
        pbp = [sys.executable, "-m", "pbp", "backup", "--settings", str(settings)]
        costs: dict[str, list[float]] = {"pbp backup": [], "tar czf": [], "in-process": []}
        for number in range(rounds):
            # The command's own work, without the interpreter's start: what a faster start leaves.
            started = time.perf_counter()
            quiet_pbp("backup", str(workspace / f"in-{number}.tar.gz"), "--settings", str(settings))
            costs["in-process"].append(time.perf_counter() - started)
            archives = {
                "pbp backup": workspace / f"pbp-{number}.tar.gz",
                "tar czf": workspace / f"tar-{number}.tar.gz",
            }
            commands = {
                "pbp backup": [*pbp, str(archives["pbp backup"])],
                "tar czf": ["tar", "czf", str(archives["tar czf"]), "data"],
            }
            order = list(commands) if number % 2 == 0 else list(reversed(commands))
            for what in order:
                costs[what].append(timed(commands[what], site))
        medians = {what: statistics.median(samples) for what, samples in costs.items()}
        archive = {"pbp backup": "pbp-0", "tar czf": "tar-0", "in-process": "in-0"}
        for what, seconds in medians.items():
            megabytes = (workspace / f"{archive[what]}.tar.gz").stat().st_size / 1e6
            print(f"{what:<10} {seconds:8.2f} s (median of {rounds})   archive {megabytes:.1f} MB")
        print(
            f"ratio in-process pbp backup/tar czf {medians['in-process'] / medians['tar czf']:.2f} "
            "(the interpreter's start left out)"
        )
        ratio = medians["pbp backup"] / medians["tar czf"]
        ok = ratio <= ALLOWED_RATIO
        print(
            f"ratio pbp backup/tar czf {ratio:.2f} (need <= {ALLOWED_RATIO}):"
            f" {'OK' if ok else 'TOO SLOW'}"
        )
        return ok
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Benchmark `pbp backup` against `tar czf` of the same folder."
    )
    parser.add_argument(
        "--games", type=int, default=100, help="games in the data folder (default 100)"
    )
    parser.add_argument("--players", type=int, default=8, help="players in each game (default 8)")
    parser.add_argument(
        "--late-phase", type=int, default=60, help="the phase every game is at (default 60)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="samples of each (default 3)")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 260 or args.players < 6 or args.late_phase < 3 or args.rounds < 1:
        parser.error(
            "--games must be 1 to 260, --players at least 6, --late-phase at least 3, --rounds at"
            " least 1"
        )
    return 0 if run(args.games, args.players, args.late_phase, args.rounds) else 1


if __name__ == "__main__":
    sys.exit(main())
