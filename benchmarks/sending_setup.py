"""What benchmarks/dispatch.py and benchmarks/deadline.py share: an SMTP server on loopback
that accepts every mail and keeps none, and a pbp data folder whose settings send to it;
and `quiet_pbp` (benchmarks/in_process.py), which benchmarks/startup.py takes from here.

The server is aiosmtpd in its own process (`python3 -m aiosmtpd` with its `Sink` handler,
which answers 250 to every DATA and stores nothing; no Dovecot behind it), so the mail
server is not what is measured and does not share this process's interpreter; pbp and the
raw `smtplib` baseline talk to the same server over the same loopback.
"""

from __future__ import annotations

import contextlib
import smtplib
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Iterator

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
# Python puts this script's folder first on the path, where a sibling benchmark named
# like a package (benchmarks/engine.py) would hide the real one: drop it.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
sys.path.insert(0, str(REPO))
# Before the tests' folder goes on the path: its `benchmarks` package would hide this one.
from benchmarks.in_process import quiet_pbp  # noqa: E402

sys.path.insert(1, str(REPO / "tests"))  # the test fixtures' free_port, reused as is

from fixtures.mailserver import LOOPBACK, START_TIMEOUT, free_port, wait_for_port  # noqa: E402

from engine.seat_names import player_names  # noqa: E402

FROM_ADDRESS = "moderator@pbp.bench"


@dataclass(frozen=True)
class NullSmtp:
    hostname: str
    port: int


@contextlib.contextmanager
def null_smtp_server() -> Iterator[NullSmtp]:
    """aiosmtpd's own command with its Sink handler, in a child process, until the end."""
    server = NullSmtp(LOOPBACK, free_port())
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "aiosmtpd",
            "-n",
            "-c",
            "aiosmtpd.handlers.Sink",
            "-l",
            f"{server.hostname}:{server.port}",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(server.port, process, START_TIMEOUT)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def make_data_folder(
    root: Path, smtp: NullSmtp, players: int, seed: str, schedule: str = ""
) -> Path:
    """`pbp init`, settings sending over SMTP to `smtp`, and one Infiltration game `g1` of
    `players` players made by `pbp new-game` (its welcome mails sent). Returns the settings."""
    root.mkdir(parents=True)
    settings = root / "pbp.ini"
    quiet_pbp("init", "--settings", str(settings), "--data", "data")
    settings.write_text(
        f"""[pbp]
data = data
transport = imap
from_address = {FROM_ADDRESS}
replies_per_sender_per_day = 1000000

[imap]
host = {LOOPBACK}
port = 1
security = none
user = {FROM_ADDRESS}
password = unused

[smtp]
host = {smtp.hostname}
port = {smtp.port}
security = none
""",
        encoding="utf-8",
    )
    roster = root / "roster.csv"
    roster.write_text(
        "name,email\n"
        + "".join(f"{name},{name.lower()}@players.example\n" for name in player_names(players))
    )
    quiet_pbp(
        "new-game",
        "--ruleset",
        "infiltration",
        "--roster",
        str(roster),
        "--seed",
        seed,
        "--id",
        "g1",
        *(["--schedule", schedule] if schedule else []),
        "--settings",
        str(settings),
    )
    return settings


def raw_send_seconds(smtp: NullSmtp, messages: list[EmailMessage]) -> float:
    """The baseline: smtplib alone sending prepared messages over one connection, each to
    its one recipient from the moderator's address (connecting and QUIT included)."""
    started = time.perf_counter()
    with smtplib.SMTP(smtp.hostname, smtp.port, timeout=30) as client:
        client.ehlo()
        for message in messages:
            client.send_message(
                message,
                from_addr=FROM_ADDRESS,
                to_addrs=[str(message["To"].addresses[0].addr_spec)],
            )
    return time.perf_counter() - started


def print_verdict(
    ratios: list[float], medians: str, what: str, target: float, at_most: bool
) -> bool:
    """The last lines of a sending benchmark: the medians, the rounds' spread, and the median
    ratio against its target (`at_most`: the ratio must not exceed it, else reach it)."""
    median = statistics.median(ratios)
    print(f"{medians}   rounds' ratios {min(ratios):.2f}-{max(ratios):.2f}")
    ok = median <= target if at_most else median >= target
    print(
        f"ratio {what} {median:.2f} (need {'<=' if at_most else '>='} {target}):"
        f" {'OK' if ok else 'TOO SLOW'}"
    )
    return ok
