"""Simulation throughput with the scripted players at the default skill: games per second per
core for 16-player Infiltration and 15-player Werewolf (docs/balance.md: Speed), played by
`pbp balance`'s own runner with one process and with one process per core, side by side in
one run.

    python benchmarks/simulate.py [--games N] [--jobs J]

Per core: with one process, games per CPU-second of that process (what one core does, also
on a machine shared with other work); with J processes, games per second of wall time / J.
One untimed game comes first, so that what a process does once (importing the rulesets the
name rules read, building their cards) is not counted as the games' cost. The last line
prints each ruleset's games per second per core over the target of 50 (at least 1 meets it).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path; keep it from hiding packages.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.players import DEFAULT_SKILL  # noqa: E402
from pbp.balance.runs import play_in_parallel  # noqa: E402

CASES = (("infiltration", 16), ("werewolf", 15))
TARGET = 50.0


def one_core(ruleset: str, players: int, games: int) -> float:
    rules = engine.ruleset(ruleset)
    started = time.process_time()
    play_in_parallel(rules, players, games, "bench", {}, 1, skill=DEFAULT_SKILL)
    return games / (time.process_time() - started)


def every_core(ruleset: str, players: int, games: int, jobs: int) -> float:
    rules = engine.ruleset(ruleset)
    started = time.perf_counter()
    play_in_parallel(rules, players, games, "bench", {}, jobs, skill=DEFAULT_SKILL)
    return games / (time.perf_counter() - started) / jobs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per measurement (default 60)")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="processes for the parallel run"
    )
    args = parser.parse_args(argv)
    ratios = []
    for ruleset, players in CASES:
        play_in_parallel(engine.ruleset(ruleset), players, 1, "warm-up", {}, 1, skill=DEFAULT_SKILL)
        serial = one_core(ruleset, players, args.games)
        parallel = every_core(ruleset, players, args.games, args.jobs)
        ratios.append(serial / TARGET)
        print(
            f"{ruleset} {players} players, skill {DEFAULT_SKILL:g}: {serial:.1f} games/s per core"
            f" with 1 process, {parallel:.1f} with {args.jobs}"
        )
    print(
        f"games/s per core over the target of {TARGET:g}: "
        + ", ".join(f"{ruleset} {ratio:.2f}" for (ruleset, _), ratio in zip(CASES, ratios))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
