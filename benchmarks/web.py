"""The host's desk benchmark: does a page cost about what `pbp status` costs, and does the
games page stay cheap with many games?

Run: python3 benchmarks/web.py [--players 48] [--late-phase 60] [--games 1000] [--rounds 7]

(a) A game's page against `pbp status <game>`. One Infiltration game of `--players`
    players is played to phase `--late-phase` the way benchmarks/storage.py plays it
    (every awaited player mails orders, pbp ingests them, resolves, sends). Then, in this
    one process and alternating which goes first, each round times
    - the page: `GET /games/g1` through the desk's Flask test client, logged in (the data
      folder opened read-only, the game loaded and decoded, the page rendered), and
    - the command: `pbp status g1` run in-process through `pbp.cli.main` with its output
      captured (settings read, the data folder opened read-only, the status written).
    Both start from nothing the previous call kept: each opens the data folder afresh, as
    a request and a command do. Ratio: page / command, target at most 1.5.
(b) The games page (`GET /`) of a data folder with `--games` games against one with 10,
    both made as benchmarks/games.py makes its folders (one Infiltration game copied
    under new ids, the index built by a daemon cycle). The desk is one long-lived process
    that keeps each game's part of the page while the game's files are unchanged
    (pbp.web.game_list), so each round times a request to a desk that has served the page
    before (a request that follows the host's previous one, or the poll's reload); the
    first, cold request of each folder is printed too. Ratio: many / 10, target at most 2.

Each ratio is the median round's. Printed last: both ratios. Exit status 0 when both hold.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
# As benchmarks/storage.py: a sibling benchmark named like a package would hide the real one.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
sys.path.insert(0, str(REPO))

from benchmarks import games as many_games  # noqa: E402
from benchmarks import storage as long_game  # noqa: E402
from pbp import cli  # noqa: E402
from pbp.settings import Settings, load_settings  # noqa: E402
from pbp.web.app import make_app  # noqa: E402
from pbp.web.credentials import new_login_link  # noqa: E402

PAGE_RATIO = 1.5
GAMES_RATIO = 2.0
FEW_GAMES = 10


def logged_in_client(settings: Settings):
    app = make_app(settings)
    app.config["TESTING"] = True
    client = app.test_client()
    if client.get(f"/login/{new_login_link(settings.data)}").status_code != 302:
        raise SystemExit("the benchmark could not log in to the desk")
    return client


def timed_get(client, path: str) -> float:
    started = time.perf_counter()
    answer = client.get(path)
    elapsed = time.perf_counter() - started
    if answer.status_code != 200:
        raise SystemExit(f"GET {path} answered {answer.status_code}: {answer.data[:300]!r}")
    return elapsed


def timed_status(settings_file: Path, game: str) -> float:
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["status", game, "--settings", str(settings_file)])
    elapsed = time.perf_counter() - started
    if code != 0 or f"Game {game}" not in out.getvalue():
        raise SystemExit(f"pbp status {game} failed: {out.getvalue()}{err.getvalue()}")
    return elapsed


def game_page_against_status(workspace: Path, players: int, late_phase: int, rounds: int) -> float:
    started = time.perf_counter()
    settings_file = long_game.make_site(workspace / "long", players, late_phase)
    mails = 0
    while long_game.open_phase_number(settings_file) < late_phase:
        mails = long_game.play_phase(settings_file, mails)
    print(
        f"setup     one Infiltration game of {players} players played to phase {late_phase} "
        f"({mails} order mails) in {time.perf_counter() - started:.0f} s"
    )
    client = logged_in_client(load_settings(str(settings_file)))
    page = f"/games/{long_game.GAME}"
    (
        timed_get(client, page),
        timed_status(settings_file, long_game.GAME),
    )  # imports and templates, untimed
    pages, commands = [], []
    for number in range(rounds):
        measures = [
            lambda: pages.append(timed_get(client, page)),
            lambda: commands.append(timed_status(settings_file, long_game.GAME)),
        ]
        for measure in measures if number % 2 == 0 else measures[::-1]:
            measure()
    ratio = statistics.median(page / command for page, command in zip(pages, commands))
    print(
        f"game page {statistics.median(pages) * 1000:8.1f} ms   pbp status {long_game.GAME}"
        f" {statistics.median(commands) * 1000:8.1f} ms (medians of {rounds}, in-process)   ratio"
        f" {ratio:.2f}"
    )
    return ratio


def games_page_many_against_few(workspace: Path, games: int, rounds: int) -> float:
    started = time.perf_counter()
    template = workspace / "template"
    many_games.make_template(template, 10)
    sites = {
        count: many_games.make_site(template, workspace / f"games{count}", count)
        for count in (FEW_GAMES, games)
    }
    print(
        f"setup     data folders of {FEW_GAMES} and {games} games in"
        f" {time.perf_counter() - started:.0f} s"
    )
    clients = {count: logged_in_client(site.settings) for count, site in sites.items()}
    cold = {count: timed_get(client, "/") for count, client in clients.items()}
    times: dict[int, list[float]] = {count: [] for count in clients}
    for number in range(rounds):
        for count in sorted(clients) if number % 2 == 0 else sorted(clients, reverse=True):
            times[count].append(timed_get(clients[count], "/"))
    ratio = statistics.median(big / few for big, few in zip(times[games], times[FEW_GAMES]))
    print(
        f"games page {FEW_GAMES} games {statistics.median(times[FEW_GAMES]) * 1000:8.1f} ms  "
        f" {games} games {statistics.median(times[games]) * 1000:8.1f} ms (medians of {rounds})  "
        f" ratio {ratio:.2f}   (first request: {cold[FEW_GAMES] * 1000:.0f} ms and"
        f" {cold[games] * 1000:.0f} ms)"
    )
    return ratio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the host's desk against pbp status.")
    parser.add_argument(
        "--players", type=int, default=48, help="players in the long game (default 48)"
    )
    parser.add_argument(
        "--late-phase", type=int, default=60, help="the long game's open phase (default 60)"
    )
    parser.add_argument(
        "--games", type=int, default=1000, help="games in the big data folder (default 1000)"
    )
    parser.add_argument(
        "--rounds", type=int, default=7, help="timed requests of each kind (default 7)"
    )
    args = parser.parse_args(argv)
    if args.players < 6 or args.late_phase < 2 or args.games <= FEW_GAMES or args.rounds < 1:
        parser.error(
            f"--players must be at least 6, --late-phase at least 2, --games more than {FEW_GAMES},"
            " --rounds at least 1"
        )
    workspace = Path(tempfile.mkdtemp(prefix="pbp-web-"))
    try:
        page = game_page_against_status(workspace, args.players, args.late_phase, args.rounds)
        listing = games_page_many_against_few(workspace, args.games, args.rounds)
    finally:
        shutil.rmtree(workspace, ignore_errors=True)
    verdicts = []
    for what, ratio, target in (
        (f"game page / pbp status at phase {args.late_phase}", page, PAGE_RATIO),
        (f"games page {args.games} games / {FEW_GAMES} games", listing, GAMES_RATIO),
    ):
        verdicts.append(ratio <= target)
        print(
            f"ratio {what} {ratio:.2f} (need <= {target}):"
            f" {'OK' if ratio <= target else 'TOO SLOW'}"
        )
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
