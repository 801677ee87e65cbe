"""Start-up benchmark: how long a host waits for a one-shot command, against the
interpreter's own start.

Run: python3 benchmarks/startup.py [--rounds 7] [--games 10]

It makes a data folder with the embedded Maildir transport (no servers) and `--games`
games, Werewolf and Infiltration in turn, each made by `pbp new-game` and moved past its
opening phase by `pbp advance`, the way a host's folder looks in the middle of a season.
Then it runs, each in a fresh interpreter (`python3 -m pbp` of this checkout), in turn in
every round so that the machine's noise hits them all alike:

    python -c pass            the interpreter alone: the floor
    pbp --version             the parser alone
    pbp --help                the parser with every command's one-line summary
    pbp status                every game of the folder read and summarised
    pbp orders <game>         one game read, its open phase's orders listed

Each runs as an installed pbp does, from byte-compiled modules: the children keep their
compiled modules in a scratch folder (`PYTHONPYCACHEPREFIX`, whatever
`PYTHONDONTWRITEBYTECODE` says), filled by one untimed run of each command first, so the
checkout gets no `__pycache__` and compiling the sources is not what is measured.

It prints, side by side, each command's median wall time, its fastest wall time and its
median CPU time (user + system of the child), and the ratio of `pbp --version` to
`python -c pass` (at most 4 wanted). The verdicts use CPU time: on a machine shared with
other work the wall time measures the neighbours too, while on an idle machine the two
agree for these single-threaded commands. Wanted: `pbp --version` and `pbp --help` under
0.15 s, `pbp status` under 0.5 s (docs/design.md: Start-up).

Exit status: 0 when the ratio and the three limits hold, 1 when one does not.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
from sending_setup import quiet_pbp  # noqa: E402  (also puts REPO first on the path)

from engine.seat_names import player_names  # noqa: E402

ALLOWED_RATIO = 4.0
LIMITS = {"pbp --version": 0.15, "pbp --help": 0.15, "pbp status": 0.5}
MODERATOR = "moderator@pbp.bench"
# (ruleset, players) in turn: the sizes a host's season has.
GAME_KINDS = (
    ("werewolf", 9),
    ("infiltration", 10),
    ("werewolf", 12),
    ("infiltration", 8),
    ("werewolf", 15),
)


def make_site(root: Path, games: int) -> tuple[Path, list[str]]:
    """`pbp init` (the Maildir transport), then `games` games by `pbp new-game` and
    `pbp advance`. Returns the settings file and the games' ids."""
    root.mkdir(parents=True)
    settings = root / "pbp.ini"
    quiet_pbp("init", "--settings", str(settings), "--data", "data")
    text = settings.read_text(encoding="utf-8")
    settings.write_text(
        re.sub(r"^from_address = .*$", f"from_address = {MODERATOR}", text, count=1, flags=re.M),
        encoding="utf-8",
    )
    ids = []
    for number in range(1, games + 1):
        ruleset, players = GAME_KINDS[(number - 1) % len(GAME_KINDS)]
        game_id = f"{ruleset[:3]}{number}"
        roster = root / f"{game_id}.csv"
        roster.write_text(
            "name,email\n"
            + "".join(
                f"{name},{name.lower()}.{game_id}@players.example\n"
                for name in player_names(players)
            ),
            encoding="utf-8",
        )
        quiet_pbp(
            "new-game",
            "--ruleset",
            ruleset,
            "--roster",
            str(roster),
            "--seed",
            f"startup-{game_id}",
            "--id",
            game_id,
            "--settings",
            str(settings),
        )
        quiet_pbp("advance", game_id, "--settings", str(settings))
        ids.append(game_id)
    return settings, ids


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of `argv` in a child process; a failure stops
    the benchmark, since a command that fails at once would look fast."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, check=False
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode(errors='replace')}"
        )
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--rounds", type=int, default=7, help="runs of each command (default 7)")
    options.add_argument(
        "--games", type=int, default=10, help="games in the data folder (default 10)"
    )
    args = options.parse_args()

    with tempfile.TemporaryDirectory(prefix="pbp-startup-") as scratch:
        root = Path(scratch) / "site"
        settings, ids = make_site(root, args.games)
        pbp = [sys.executable, "-m", "pbp"]
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "pbp --version": [*pbp, "--version"],
            "pbp --help": [*pbp, "--help"],
            "pbp status": [*pbp, "status", "--settings", str(settings)],
            f"pbp orders {ids[0]}": [*pbp, "orders", ids[0], "--settings", str(settings)],
        }
        # This checkout's pbp, whatever an installed one says, byte-compiled as installed.
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO),
            "PYTHONPYCACHEPREFIX": str(Path(scratch) / "bytecode"),
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for argv in commands.values():
            timed(argv, root, env)
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        names = list(commands)
        for round_number in range(args.rounds):
            turn = names[round_number % len(names) :] + names[: round_number % len(names)]
            for name in turn:
                samples[name].append(timed(commands[name], root, env))

    print(f"{args.games} games, {args.rounds} runs each; seconds")
    print(
        f"{'command':<22}{'wall median':>13}{'wall fastest':>14}{'CPU median':>12}{'x python':>10}"
    )
    cpu = {name: statistics.median(c for _, c in runs) for name, runs in samples.items()}
    floor = cpu["python -c pass"]
    for name, runs in samples.items():
        walls = [wall for wall, _ in runs]
        print(
            f"{name:<22}{statistics.median(walls):>13.3f}{min(walls):>14.3f}{cpu[name]:>12.3f}"
            f"{cpu[name] / floor:>10.1f}"
        )
    ok = True
    for name, limit in LIMITS.items():
        holds = cpu[name] < limit
        ok &= holds
        print(f"{name}: {cpu[name]:.3f} s CPU (need < {limit}): {'OK' if holds else 'TOO SLOW'}")
    ratio = cpu["pbp --version"] / floor
    ok &= ratio <= ALLOWED_RATIO
    print(
        f"ratio pbp --version / python -c pass {ratio:.2f} (need <= {ALLOWED_RATIO:g}): "
        f"{'OK' if ratio <= ALLOWED_RATIO else 'TOO SLOW'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
