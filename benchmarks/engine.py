"""Infiltration engine benchmark: the mean time to resolve one full turn (movement +
decision) at 12 and at 48 players, measured side by side in one run, and their ratio.

    python benchmarks/engine.py [--games N]

Orders come from the scripted players and are parsed before the clock starts; only
`resolve` is timed. The two sizes alternate game by game so that machine noise hits both.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its name (engine.py) would
# hide the `engine` package; drop that entry before importing.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import engine  # noqa: E402
from engine.core import PlayerSpec  # noqa: E402
from engine.seat_names import player_names  # noqa: E402


def turn_times(rules, players: int, seed: str) -> list[float]:
    """Seconds per full turn (movement resolution + decision resolution) in one game."""
    state = rules.new_game([PlayerSpec(n) for n in player_names(players)], seed, {})
    times, pending = [], 0.0
    while (phase := rules.phase(state)) is not None:
        orders = {
            a: rules.parse_orders(state, a, rules.scripted_orders(state, a, seed).splitlines())
            for a in phase.actors
        }
        started = time.perf_counter()
        state = rules.resolve(state, orders).state
        elapsed = time.perf_counter() - started
        if phase.kind == "movement":
            pending = elapsed
        elif phase.kind == "decision":
            times.append(pending + elapsed)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per size (default 30)")
    args = parser.parse_args(argv)
    rules = engine.ruleset("infiltration")
    samples: dict[int, list[float]] = {12: [], 48: []}
    for index in range(args.games):
        for players in samples:
            samples[players] += turn_times(rules, players, f"bench/{index}")
    means = {players: statistics.fmean(times) for players, times in samples.items()}
    for players, mean in means.items():
        print(
            f"{players:>2} players: {mean * 1000:8.3f} ms per turn (movement + decision),"
            f" {len(samples[players])} turns"
        )
    ratio = means[48] / means[12]
    print(f"ratio 48/12: {ratio:.2f} (must be <= 5)")
    return 0 if ratio <= 5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
