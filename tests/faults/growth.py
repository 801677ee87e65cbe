"""How a reader's cost grows with its input, measured in CPU time side by side (the fault
suite's linearity threats): one big input against as many small ones as hold the same
amount, so linear reading gives a ratio near 1 and quadratic reading near their count."""

from __future__ import annotations

import time


def cpu_seconds(work, repeat: int) -> float:
    """CPU time of this thread (not the wall clock: other processes do not count) for
    `repeat` runs of `work`."""
    start = time.thread_time()
    for _ in range(repeat):
        work()
    return time.thread_time() - start


def work_ratio(read, make, small: int, large: int) -> float:
    """The CPU cost of `read(make(large))` over that of `large // small` runs of
    `read(make(small))`: about 1 when reading is linear, `large // small` when quadratic
    (best of three rounds, interleaved; a round already far off decides)."""
    little, big = make(small), make(large)
    read(little), read(big)  # warm: imports, compiled patterns
    best_small = best_large = float("inf")
    for _ in range(3):
        best_small = min(best_small, cpu_seconds(lambda: read(little), large // small))
        best_large = min(best_large, cpu_seconds(lambda: read(big), 1))
        ratio = best_large / best_small
        if ratio < 3 or ratio > 30:
            break
    return ratio
