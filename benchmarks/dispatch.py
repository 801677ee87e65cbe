"""Sending benchmark: pbp's outbox sending mail over SMTP against raw `smtplib` sending the
same prepared messages over one connection.

Run: python3 benchmarks/dispatch.py [--mails 2000] [--rounds 5]

It starts its own aiosmtpd on loopback, in a child process, with a handler that accepts
every mail and stores none (benchmarks/sending_setup.py; no Dovecot behind it, so the
server is not the bottleneck), makes a data folder with a 48-player Infiltration game
through pbp's own commands, and queues `--mails` outbox rows in that game: the game's welcome mails,
repeated as report rows (one subject and body per player, a couple of KB each). That
folder is the template; every round then measures, in turn:

(a) pbp: a copy of the template opened as `pbp poll` opens it, and `Outbox.send_due` with
    the sender `pbp poll` uses (pbp.mail.transport.open_sender): reading the ledger, building
    each message, sending it, marking each row sent durably;
(b) raw: `smtplib` connecting, sending the same messages (built from the same rows before
    the clock starts) one recipient each, and QUIT.

The two alternate, the order flipping each round; each round's ratio (pbp's throughput
over raw) is printed, and the median round's ratio, printed last, must be at least 0.8.

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
from sending_setup import make_data_folder, null_smtp_server, print_verdict, raw_send_seconds  # noqa: E402

from pbp.moderator import Moderator  # noqa: E402
from pbp.storage.outbox_queue import QUEUED  # noqa: E402
from pbp.render.renderer import RenderedMail  # noqa: E402
from pbp.settings import load_settings  # noqa: E402
from pbp.mail.transport import open_sender  # noqa: E402
from pbp.daemon.outbox_sending import build as outbox_mail, send_due  # noqa: E402

NEEDED_RATIO = 0.8
PLAYERS = 48


def queue_reports(settings: Path, mails: int) -> None:
    """Mark the welcomes sent, then queue `mails` report rows copying their texts."""
    with Moderator(load_settings(str(settings))) as moderator:
        game = moderator.folder.game("g1")
        welcomes = game.outbox.all()
        with game.transaction():
            game.outbox.update({"status": "sent"})
            for number in range(mails):
                welcome = welcomes[number % len(welcomes)]
                moderator.outbox.queue(
                    game,
                    phase="T1-movement",
                    recipient=welcome["recipient"],
                    address=welcome["address"],
                    kind="report",
                    mail=RenderedMail(welcome["subject"], welcome["body"]),
                )


def prepared_messages(settings: Path) -> list:
    with Moderator(load_settings(str(settings))) as moderator:
        rows = [row for row in moderator.folder.game("g1").outbox.all() if row["status"] == QUEUED]
        return [outbox_mail(moderator.outbox, row) for row in rows]


def pbp_send_seconds(template: Path, round_folder: Path, mails: int) -> float:
    shutil.copytree(template, round_folder)
    with Moderator(load_settings(str(round_folder / "pbp.ini"))) as moderator:
        sender = open_sender(moderator.settings)
        started = time.perf_counter()
        summary = send_due(moderator.outbox, sender)
        seconds = time.perf_counter() - started
    if (summary.sent, summary.retrying, summary.failed) != (mails, 0, 0):
        raise RuntimeError(f"pbp sent {summary.sent} of {mails} mails: {summary.errors[:3]}")
    shutil.rmtree(round_folder)
    return seconds


def run(mails: int, rounds: int) -> bool:
    workspace = Path(tempfile.mkdtemp(prefix="pbp-dispatch-"))
    try:
        with null_smtp_server() as smtp:
            template = workspace / "template"
            settings = make_data_folder(template, smtp, PLAYERS, seed="dispatch")
            queue_reports(settings, mails)
            messages = prepared_messages(settings)
            size = sum(len(message.as_bytes()) for message in messages) // len(messages)
            print(
                f"setup  {mails} mails of about {size} bytes to {PLAYERS} players, one Infiltration"
                f" game; aiosmtpd on {smtp.hostname}:{smtp.port} discarding every mail; {rounds}"
                " rounds"
            )
            ratios, pbp_rates, raw_rates = [], [], []
            for number in range(1, rounds + 1):
                if number % 2:
                    raw = raw_send_seconds(smtp, messages)
                    pbp = pbp_send_seconds(template, workspace / f"round{number}", mails)
                else:
                    pbp = pbp_send_seconds(template, workspace / f"round{number}", mails)
                    raw = raw_send_seconds(smtp, messages)
                pbp_rates.append(mails / pbp)
                raw_rates.append(mails / raw)
                ratios.append(raw / pbp)
                print(
                    f"round {number}   raw smtplib {mails / raw:8.1f} mail/s   pbp outbox"
                    f" {mails / pbp:8.1f} mail/s   ratio {raw / pbp:.2f}"
                )
        return print_verdict(
            ratios,
            f"raw smtplib {statistics.median(raw_rates):8.1f} mail/s (median)   "
            f"pbp outbox {statistics.median(pbp_rates):8.1f} mail/s (median)",
            "pbp/raw",
            NEEDED_RATIO,
            at_most=False,
        )
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Benchmark pbp's outbox sending against raw smtplib."
    )
    parser.add_argument(
        "--mails", type=int, default=2000, help="mails to send per side and round (default 2000)"
    )
    parser.add_argument(
        "--rounds", type=int, default=5, help="side-by-side rounds; the median counts (default 5)"
    )
    args = parser.parse_args(argv)
    if args.mails < 1 or args.rounds < 1:
        parser.error("--mails and --rounds must be at least 1")
    return 0 if run(args.mails, args.rounds) else 1


if __name__ == "__main__":
    sys.exit(main())
