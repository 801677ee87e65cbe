"""Render benchmark (docs/design.md: Catalog checks): a player's report mail rendered in each
translated language against English, side by side in one run, and each language's ratio
to English (target: at most 1.1, so a translated game costs the host no more).

    python benchmarks/render.py [--rounds N]

A 12-player Werewolf game is played through its first night and day with the scripted
players; every report it renders is kept with its facts, then rendered again by a renderer
of each language, round after round (the languages alternate, each round starting with
another, so machine noise hits them all). Each renderer has rendered every report once
before the clock starts: a language's catalogs are compiled once per process, not per mail.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# Run as a script, this file's folder comes first on sys.path, and its engine.py would hide
# the `engine` package; the repository comes first instead.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine.seat_names import player_names  # noqa: E402
from pbp.composition import ComposedModerator  # noqa: E402
from pbp.game.create import create_game  # noqa: E402
from pbp.game.record_parts import RosterPlayer
from pbp.game.resolution import resolve_phase  # noqa: E402
from pbp.game.stored import load  # noqa: E402
from pbp.host.orders import submit  # noqa: E402
from pbp.render.languages import SOURCE_LANGUAGE, languages  # noqa: E402
from pbp.render.renderer import Renderer  # noqa: E402
from pbp.settings import Settings  # noqa: E402

TARGET = 1.1
PHASES = 4


class _KeepingRenderer(Renderer):
    """The renderer, keeping the facts of every report it renders."""

    def __init__(self) -> None:
        super().__init__()
        self.reports: list[tuple[str, dict[str, Any]]] = []

    def render(self, kind: str, ruleset: str, **context: Any) -> Any:
        if kind == "report":
            self.reports.append((ruleset, context))
        return super().render(kind, ruleset, **context)


def reports_of_a_game() -> list[tuple[str, dict[str, Any]]]:
    with tempfile.TemporaryDirectory() as folder:
        moderator = ComposedModerator(Settings(data=Path(folder), from_address="pbp@bench.example"))
        keeping = _KeepingRenderer()
        moderator.renderer = keeping
        try:
            roster = [
                RosterPlayer(name, f"p{index}@bench.example")
                for index, name in enumerate(player_names(12))
            ]
            create_game(moderator, "werewolf", roster, seed="bench", game_id="ww1")
            for _ in range(PHASES):
                game = load(moderator, "ww1")
                if game.phase is None:
                    break
                for name in game.phase.actors:
                    orders = game.rules.scripted_orders(game.state, name, "bench")
                    if orders.strip():
                        submit(moderator, "ww1", name, orders)
                resolve_phase(moderator, "ww1")
        finally:
            moderator.close()
        return keeping.reports


def seconds_per_report(renderer: Renderer, reports: list[tuple[str, dict[str, Any]]]) -> float:
    started = time.perf_counter()
    for ruleset, context in reports:
        renderer.render("report", ruleset, **context)
    return (time.perf_counter() - started) / len(reports)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rounds", type=int, default=20, help="rounds over every report (default 20)"
    )
    args = parser.parse_args(argv)
    reports = reports_of_a_game()
    renderers = {code: Renderer(language=code) for code in languages()}
    for renderer in renderers.values():
        seconds_per_report(renderer, reports)  # compiles the templates and the catalogs
    samples: dict[str, list[float]] = {code: [] for code in renderers}
    order = list(renderers)
    for round_number in range(args.rounds):
        # Each round starts with another language, so none is always measured first.
        turn = round_number % len(order)
        for code in order[turn:] + order[:turn]:
            samples[code].append(seconds_per_report(renderers[code], reports))
    means = {
        code: statistics.median(times) for code, times in samples.items()
    }  # robust to a busy machine
    for code, mean in means.items():
        print(
            f"{code}: {mean * 1000:8.3f} ms per report, {len(reports)} reports x {args.rounds}"
            " rounds"
        )
    worst = 1.0
    for code, mean in means.items():
        if code != SOURCE_LANGUAGE:
            ratio = mean / means[SOURCE_LANGUAGE]
            worst = max(worst, ratio)
            print(f"ratio {code}/en: {ratio:.2f} (must be <= {TARGET})")
    if len(means) == 1:
        print("no translated language yet: English only")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
