"""Storage benchmark: does a game's cost grow with its length?

Run: python3 benchmarks/storage.py [--late-phase 60] [--rounds 7] [--players 48]

It makes a data folder with the embedded Maildir transport (no servers) and one
Infiltration game of `--players` players, created by `pbp new-game`, and plays it phase by
phase the way a long game goes: in every phase each player whose orders the phase awaits
mails an order block (Greens sneak, so the guards spare them and the game lasts; everyone
stays and votes for no lynch), pbp ingests the mail (`pbp.daemon.cycle.Cycle.poll`: spool,
judge, commit, receipt queued, mail moved), resolves the phase (reports queued) and sends
every queued mail. It copies the data folder when the game's open phase is the 2nd and
when it is the `--late-phase`th, then measures side by side, alternating the two copies,
each sample on a fresh copy of its folder:

(a) ingesting one order mail: a player's mail is delivered, and one `pbp run` cycle (the
    data folder opened, one poll, the folder closed) judges, commits and files it;
(b) one resolution: one such cycle resolves the open phase
    (`pbp.game.resolution.resolve_phase`: new state and every report in one write).

Both are timed as the daemon's cycles are: in a process that has already run a cycle on
that data folder (an idle turn, untimed; before (a) also a cycle that ingested another
player's mail), so the game's journal and the mail ledger were read before and the cycle
reads only what was appended since (pbp.storage.datafolder, pbp.storage.mail_ledger), and with one
renderer whose templates are compiled once, as `pbp run` keeps it. A one-shot `pbp poll`
reads the whole journal's rows first, which grows with the game (the mails' texts are
never read that way).

It prints each cost's median at both phases, the late/early ratio of each (at most 1.5
wanted), the game document's and the journal's size at the late phase (the document
under 500 KB wanted), and the larger ratio last.

Exit status: 0 when both ratios and the document's size hold, 1 when one does not.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
# Python puts this script's folder first on the path, where a sibling benchmark named
# like a package (benchmarks/engine.py) would hide the real one: drop it.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
sys.path.insert(0, str(REPO))

from engine.core import OrderBlockError  # noqa: E402
from engine.seat_names import player_names  # noqa: E402
from benchmarks.in_process import quiet_pbp  # noqa: E402
from pbp.composition import ComposedModerator  # noqa: E402
from pbp.daemon.cycle import Cycle  # noqa: E402
from pbp.game.stored import StoredGame, load  # noqa: E402
from pbp.game.resolution import resolve_phase  # noqa: E402
from pbp.mail.maildir import deliver  # noqa: E402
from pbp.render.renderer import Renderer  # noqa: E402
from pbp.settings import load_settings  # noqa: E402
from pbp.mail.transport import open_mailbox, open_sender  # noqa: E402

ALLOWED_RATIO = 1.5
DOCUMENT_LIMIT = 500_000
GAME = "g1"
MODERATOR = "moderator@pbp.bench"
# Everyone stays and votes for no lynch; Greens sneak (guards spare Sneakers), Reds are
# always Warriors. So the game runs to its turn limit instead of ending in a few turns.
ORDERS = {
    "class": ("CLASS SNEAKER", "CLASS WARRIOR"),
    "movement": ("STAY",),
    "decision": ("VOTE NO LYNCH",),
}


def make_site(root: Path, players: int, late_phase: int) -> Path:
    """`pbp init` (the Maildir transport) and `pbp new-game` with a turn limit past the late
    phase."""
    root.mkdir(parents=True)
    settings = root / "pbp.ini"
    quiet_pbp("init", "--settings", str(settings), "--data", "data")
    text = settings.read_text(encoding="utf-8")
    text = re.sub(r"^from_address = .*$", f"from_address = {MODERATOR}", text, count=1, flags=re.M)
    text = re.sub(
        r"^replies_per_sender_per_day = .*$",
        "replies_per_sender_per_day = 1000000",
        text,
        count=1,
        flags=re.M,
    )
    settings.write_text(text, encoding="utf-8")
    roster = root / "roster.csv"
    roster.write_text(
        "name,email\n"
        + "".join(f"{name},{name.lower()}@players.example\n" for name in player_names(players))
    )
    turns = late_phase // 2 + 2  # two phases a turn, after the class choice
    quiet_pbp(
        "new-game",
        "--ruleset",
        "infiltration",
        "--roster",
        str(roster),
        "--seed",
        "storage",
        "--id",
        GAME,
        "--option",
        f"turn_limit={turns}",
        "--no-send",
        "--settings",
        str(settings),
    )
    return settings


# `pbp run` keeps one renderer (its compiled templates) for its life; so do the cycles here.
RENDERER = Renderer()


def open_moderator(settings: Path) -> ComposedModerator:
    moderator = ComposedModerator(load_settings(str(settings)))
    moderator.renderer = RENDERER
    return moderator


def order_line(game: StoredGame, name: str) -> str:
    kind = game.phase.id.split("-", 1)[1]
    for line in ORDERS[kind]:
        try:
            game.rules.parse_orders(game.state, name, [line])
            return line
        except OrderBlockError:
            continue
    raise RuntimeError(f"no order for {name} in {game.phase.id}")


def order_mail(game: StoredGame, name: str, number: int) -> bytes:
    address = game.roster.of(name).email
    return (
        f"From: {name} <{address}>\r\nTo: {MODERATOR}\r\nSubject: orders {GAME}"
        f" {game.phase.id}\r\nMessage-ID: <storage-{number}@players.example>\r\n\r\nBEGIN ORDERS"
        f" {GAME} {game.phase.id}\r\nTOKEN: {game.token(name)}\r\n{order_line(game, name)}\r\nEND"
        " ORDERS\r\n"
    ).encode("utf-8")


def players_mail(folder: str, names: list[str]) -> list[str]:
    """What a template leaves out: the Maildir transport's mail, which is not the game's
    storage (on IMAP it is the server's): what it delivered to the players, and the mail
    it filed after judging (the inbox's `.processed` and `.rejected` folders)."""
    if Path(folder).name == "mail":
        return [name for name in names if name != "inbox"]
    if Path(folder).name == "inbox":
        return [name for name in names if name.startswith(".")]
    return []


def open_phase_number(settings: Path) -> int:
    with open_moderator(settings) as moderator:
        return len(load(moderator, GAME).record.resolved) + 1


def play_phase(settings: Path, number: int) -> int:
    """Every awaited player mails orders; pbp ingests them, resolves, sends everything."""
    with open_moderator(settings) as moderator:
        game = load(moderator, GAME)
        inbox = moderator.settings.maildir_root / "inbox"
        for name in game.phase.actors:
            number += 1
            deliver(inbox, order_mail(game, name, number))
        cycle = Cycle(moderator, open_mailbox(moderator.settings), open_sender(moderator.settings))
        try:
            while not cycle.poll().idle:
                pass
            resolve_phase(moderator, GAME, game.phase.id)
            cycle.send()
        finally:
            cycle.close()
    return number


def cycle(settings: Path, work) -> float:
    """One `pbp run` cycle: the data folder opened (the lock taken), `work` done with the
    moderator and a mailbox cycle, the folder closed; its seconds."""
    started = time.perf_counter()
    with open_moderator(settings) as moderator:
        mail_cycle = Cycle(
            moderator, open_mailbox(moderator.settings), open_sender(moderator.settings)
        )
        try:
            work(moderator, mail_cycle)
        finally:
            mail_cycle.close()
    return time.perf_counter() - started


def warm_copy(template: Path, copy: Path) -> Path:
    """A fresh copy of `template`, after the daemon's first cycle there (an idle turn: poll,
    nothing due, the outbox looked at): the process has read the game once, as `pbp run`
    has before its next cycle."""
    shutil.copytree(template, copy)
    settings = copy / "pbp.ini"
    cycle(settings, lambda moderator, mail_cycle: mail_cycle.turn())
    # The copy's pages are still to be written, which the first sync of a game file would
    # pay for (tens of MB late in the game): a running daemon's files were written long ago.
    os.sync()
    return settings


def deliver_order(settings: Path, player: int, number: int) -> None:
    with open_moderator(settings) as moderator:
        game = load(moderator, GAME)
        deliver(
            moderator.settings.maildir_root / "inbox",
            order_mail(game, game.phase.actors[player], number),
        )


def ingest_one(settings: Path) -> float:
    reports = []
    seconds = cycle(settings, lambda moderator, mail_cycle: reports.append(mail_cycle.poll()))
    if len(reports[0].processed) != 1 or reports[0].processed[0][1] != "processed":
        raise RuntimeError(f"the order mail was not processed: {reports[0]}")
    return seconds


def ingest_seconds(template: Path, copy: Path) -> float:
    """(a) the cycle that finds one order mail: judged, committed, receipt queued, filed;
    after a cycle that ingested another player's mail (untimed), as a daemon that has
    run for a while has (its mail ledger was read then, pbp.storage.mail_ledger)."""
    settings = warm_copy(template, copy)
    deliver_order(settings, 1, 10**9)
    ingest_one(settings)
    deliver_order(settings, 0, 10**9 + 1)
    os.sync()
    seconds = ingest_one(settings)
    shutil.rmtree(copy)
    return seconds


def resolution_seconds(template: Path, copy: Path) -> float:
    """(b) the cycle that resolves the open phase (every report queued, not yet sent)."""
    settings = warm_copy(template, copy)
    summaries = []
    seconds = cycle(
        settings, lambda moderator, mail_cycle: summaries.append(resolve_phase(moderator, GAME))
    )
    if summaries[0] is None:
        raise RuntimeError("nothing was resolved")
    shutil.rmtree(copy)
    return seconds


def run(players: int, late_phase: int, rounds: int) -> bool:
    workspace = Path(tempfile.mkdtemp(prefix="pbp-storage-"))
    try:
        site = workspace / "site"
        settings = make_site(site, players, late_phase)
        early_phase, templates, mails = 2, {}, 0
        started = time.perf_counter()
        while True:
            phase = open_phase_number(settings)
            if phase in (early_phase, late_phase):
                templates[phase] = workspace / f"phase{phase}"
                shutil.copytree(site, templates[phase], ignore=players_mail)
            if phase == late_phase:
                break
            mails = play_phase(settings, mails)
        document = site / "data" / "games" / f"{GAME}.json"
        journal = document.with_suffix(".journal")
        print(
            f"setup     one Infiltration game of {players} players played to phase {late_phase}"
            f" ({mails} order mails ingested, every report sent) in"
            f" {time.perf_counter() - started:.0f} s; {rounds} rounds, each sample on a fresh copy"
        )
        costs: dict[str, dict[int, list[float]]] = {
            "ingest": {early_phase: [], late_phase: []},
            "resolution": {early_phase: [], late_phase: []},
        }
        measures = {"ingest": ingest_seconds, "resolution": resolution_seconds}
        for number in range(rounds):
            order = (early_phase, late_phase) if number % 2 == 0 else (late_phase, early_phase)
            for what, measure in measures.items():
                for phase in order:
                    costs[what][phase].append(
                        measure(templates[phase], workspace / f"copy-{what}-{phase}")
                    )
        ratios = {}
        for what, by_phase in costs.items():
            early = statistics.median(by_phase[early_phase])
            late = statistics.median(by_phase[late_phase])
            ratios[what] = late / early
            spread = [
                late_sample / early_sample
                for early_sample, late_sample in zip(by_phase[early_phase], by_phase[late_phase])
            ]
            print(
                f"{what:<10} phase {early_phase} {early * 1000:8.1f} ms   phase {late_phase}"
                f" {late * 1000:8.1f} ms (medians of {rounds})   ratio {ratios[what]:.2f}   rounds'"
                f" ratios {min(spread):.2f}-{max(spread):.2f}"
            )
        size = document.stat().st_size
        size_ok = size <= DOCUMENT_LIMIT
        print(
            f"game document at phase {late_phase} {size / 1000:8.1f} KB (need <="
            f" {DOCUMENT_LIMIT // 1000} KB): {'OK' if size_ok else 'TOO BIG'}   journal"
            f" {journal.stat().st_size / 1000:.1f} KB"
        )
        worst = max(ratios.values())
        ratio_ok = worst <= ALLOWED_RATIO
        print(
            f"ratio phase {late_phase}/phase {early_phase} {worst:.2f} (the larger of ingest and"
            f" resolution; need <= {ALLOWED_RATIO}): {'OK' if ratio_ok else 'TOO SLOW'}"
        )
        return size_ok and ratio_ok
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Benchmark a game's storage cost late in the game against early."
    )
    parser.add_argument(
        "--players", type=int, default=48, help="players in the Infiltration game (default 48)"
    )
    parser.add_argument(
        "--late-phase",
        type=int,
        default=60,
        help="the late phase compared with phase 2 (default 60)",
    )
    parser.add_argument(
        "--rounds", type=int, default=7, help="samples of each cost at each phase (default 7)"
    )
    args = parser.parse_args(argv)
    if args.players < 6 or args.late_phase < 3 or args.rounds < 1:
        parser.error("--players must be at least 6, --late-phase at least 3, --rounds at least 1")
    return 0 if run(args.players, args.late_phase, args.rounds) else 1


if __name__ == "__main__":
    sys.exit(main())
