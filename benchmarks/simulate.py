"""Simulation throughput: games per second per core, for 16-player Infiltration and
15-player Werewolf, played by `pbp simulate`'s own runner with one process and with one
process per core, side by side in one run.

    python benchmarks/simulate.py [--games N] [--jobs J]

Per core = games per second / processes used. With perfect scaling the two per-core
figures are equal; the ratio printed last (all cores / one core, per core) shows how close.
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
from pbp.balance.runs import play_in_parallel  # noqa: E402

CASES = (("infiltration", 16), ("werewolf", 15))


def games_per_second(ruleset: str, players: int, games: int, jobs: int) -> float:
    rules = engine.ruleset(ruleset)
    started = time.perf_counter()
    play_in_parallel(rules, players, games, f"bench-{jobs}", {}, jobs)
    return games / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per measurement (default 40)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for the parallel run")
    args = parser.parse_args(argv)
    ratios = []
    for ruleset, players in CASES:
        serial = games_per_second(ruleset, players, args.games, 1)
        parallel = games_per_second(ruleset, players, args.games, args.jobs) / args.jobs
        ratios.append(parallel / serial)
        print(f"{ruleset} {players} players: {serial:.2f} games/s/core with 1 process, "
              f"{parallel:.2f} games/s/core with {args.jobs}")
    print(f"per-core efficiency of {args.jobs} processes against 1: "
          + ", ".join(f"{ruleset} {ratio:.2f}" for (ruleset, _), ratio in zip(CASES, ratios)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
