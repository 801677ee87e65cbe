"""Deadline-to-inbox benchmark: from a 48-player Infiltration phase's deadline to the moment
SMTP accepted the last report, against the engine's own resolution plus raw `smtplib`
sending of the same reports.

Run: python3 benchmarks/deadline.py [--players 48] [--rounds 5]

It starts its own aiosmtpd on loopback, in a child process, whose handler accepts every
mail and stores none (benchmarks/sending_setup.py; no Dovecot behind it, so the server is
not what is measured), and makes a data folder with one Infiltration game through pbp's
own commands: `pbp new-game` (welcome mails sent), then `pbp advance` past the class choice
to the first movement phase. That folder is the template. Every round then measures, in
turn:

(a) pbp: a copy of the template opened with its clock at the phase's deadline, and what
    the daemon does at a deadline — `pbp.game.resolution.resolve_due` (orders, engine, the report
    rendered for every player, queued in the outbox in the resolution's one commit)
    followed by `Outbox.send_due` with the sender `pbp run` uses, until the last report is
    accepted. The daemon's own wake-up (its alarm) is not part of it, nor is compiling
    the templates: `pbp run` keeps one renderer for its life, so every round uses one
    renderer, warmed by an untimed round before the first.
(b) baseline: the engine's `resolve` alone on the same state and orders (the orders are
    gathered before the clock starts), plus `smtplib` sending the very reports pbp sent in
    that round (built before the clock starts) over one connection.

Nobody gave orders for the phase, so every player's standing orders or the rules'
defaults apply, as for a player who stays silent. The two alternate, the order flipping
each round; each round's ratio (pbp's time over the baseline's) is printed, and the median
round's ratio, printed last, must be at most 1.5.

Exit status: 0 when the ratio holds, 1 when it does not.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sending_setup import (
    make_data_folder,
    null_smtp_server,
    print_verdict,
    quiet_pbp,  # noqa: E402
    raw_send_seconds,
)

from pbp.timezones import as_utc  # noqa: E402
from pbp.game.stored import load  # noqa: E402
from pbp.game.resolution import resolve_due  # noqa: E402
from pbp.composition import ComposedModerator as Moderator  # noqa: E402  (the daemon's wiring: the forum drafts too)
from pbp.render.renderer import Renderer  # noqa: E402
from pbp.settings import load_settings  # noqa: E402
from pbp.game.standing_orders import standing_orders  # noqa: E402
from pbp.mail.transport import open_sender  # noqa: E402
from pbp.daemon.outbox_sending import build as outbox_mail, send_due  # noqa: E402

ALLOWED_RATIO = 1.5


def deadline_of(settings: Path):
    with Moderator(load_settings(str(settings))) as moderator:
        return as_utc(load(moderator, "g1").record.deadline)


def pbp_seconds(template: Path, folder: Path, deadline, renderer: Renderer) -> tuple[float, list]:
    """pbp's time from the deadline to the last report accepted, and the reports it sent."""
    shutil.copytree(template, folder)
    with Moderator(load_settings(str(folder / "pbp.ini")), clock=lambda: deadline) as moderator:
        moderator.renderer = renderer
        sender = open_sender(moderator.settings)
        started = time.perf_counter()
        (resolved,) = resolve_due(moderator)
        summary = send_due(moderator.outbox, sender)
        seconds = time.perf_counter() - started
        reports = [
            row
            for row in moderator.folder.game("g1").outbox.all()
            if row["kind"] == "report" and row["phase"] == resolved.phase
        ]
        if summary.sent < len(reports) or summary.failed or summary.retrying:
            raise RuntimeError(
                f"pbp sent {summary.sent} of {len(reports)} reports: {summary.errors[:3]}"
            )
        messages = [outbox_mail(moderator.outbox, row) for row in reports]
    shutil.rmtree(folder)
    return seconds, messages


def engine_seconds(template: Path) -> float:
    """The ruleset's `resolve` alone, on the state and orders pbp resolves."""
    with Moderator(load_settings(str(template / "pbp.ini"))) as moderator:
        game = load(moderator, "g1")
        blocks = {
            player: row["text"].splitlines()
            for player, row in game.latest_orders(game.phase.id).items()
        }
        orders = standing_orders(game.rules, game.state, game.phase, blocks)
        started = time.perf_counter()
        game.rules.resolve(game.state, orders)
        return time.perf_counter() - started


def run(players: int, rounds: int) -> bool:
    workspace = Path(tempfile.mkdtemp(prefix="pbp-deadline-"))
    try:
        with null_smtp_server() as smtp:
            template = workspace / "template"
            settings = make_data_folder(
                template, smtp, players, seed="deadline", schedule="default=1h"
            )
            quiet_pbp("advance", "g1", "--settings", str(settings))  # past the class choice
            deadline = deadline_of(settings)
            print(
                f"setup  one Infiltration game of {players} players at its first movement phase; "
                f"aiosmtpd on {smtp.hostname}:{smtp.port} discarding every mail; {rounds} rounds"
            )
            renderer = Renderer()
            pbp_seconds(template, workspace / "warm-up", deadline, renderer)
            ratios, pbp_times, base_times = [], [], []
            for number in range(1, rounds + 1):
                folder = workspace / f"round{number}"
                if number % 2:
                    engine = engine_seconds(template)
                    pbp, messages = pbp_seconds(template, folder, deadline, renderer)
                    raw = raw_send_seconds(smtp, messages)
                else:
                    pbp, messages = pbp_seconds(template, folder, deadline, renderer)
                    engine = engine_seconds(template)
                    raw = raw_send_seconds(smtp, messages)
                baseline = engine + raw
                ratios.append(pbp / baseline)
                pbp_times.append(pbp)
                base_times.append(baseline)
                print(
                    f"round {number}   engine {engine * 1000:7.1f} ms + raw send of {len(messages)}"
                    f" reports {raw * 1000:7.1f} ms = {baseline * 1000:7.1f} ms   pbp deadline to"
                    f" last report {pbp * 1000:7.1f} ms   ratio {pbp / baseline:.2f}"
                )
        return print_verdict(
            ratios,
            f"baseline {statistics.median(base_times) * 1000:7.1f} ms (median)   "
            f"pbp {statistics.median(pbp_times) * 1000:7.1f} ms (median)",
            "pbp/baseline",
            ALLOWED_RATIO,
            at_most=True,
        )
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Benchmark a phase's deadline to its last report accepted by SMTP."
    )
    parser.add_argument("--players", type=int, default=48, help="players in the game (default 48)")
    parser.add_argument(
        "--rounds", type=int, default=5, help="side-by-side rounds; the median counts (default 5)"
    )
    args = parser.parse_args(argv)
    if args.players < 1 or args.rounds < 1:
        parser.error("--players and --rounds must be at least 1")
    return 0 if run(args.players, args.rounds) else 1


if __name__ == "__main__":
    sys.exit(main())
