"""Receipt latency benchmark: the time from the SMTP delivery of an order mail to the
moment the SMTP server accepts pbp's receipt for it, with `pbp run` waiting in IMAP IDLE
and with `pbp run` polling (IDLE off).

Run: python3 benchmarks/latency.py [--rounds 20] [--poll-rounds 3] [--poll-interval 60]

It starts its own Dovecot and aiosmtpd on loopback (the test fixtures,
tests/fixtures/mailserver.py), makes an Infiltration game with `pbp new-game`, and runs
`pbp run` as a subprocess. In each round one player replies to pbp's latest mail with
orders filled into its form; both moments are taken in this process from the SMTP
server's own record (`accepted_at`, after delivery into Dovecot), so no clock of pbp's is
trusted.

With IDLE, `--rounds` rounds are measured and the median must be under 2 s. With polling,
every round really waits for the daemon's next poll, so it takes up to `--poll-interval`
seconds; only `--poll-rounds` rounds are measured (a few minutes at the default 60 s
interval), and the expected latency for mail arriving at a random moment — half the
interval plus the processing time — is printed beside the measurement, marked as an
estimate.

Dovecot tells an idling client of new mail through inotify; where the kernel lacks it
(some sandboxes) the fixture's Dovecot looks every second instead
(`mailbox_idle_check_interval`), which then bounds the IDLE figures from above.

Exit status: 0 when the IDLE median is under 2 s, 1 when it is not.
"""

from __future__ import annotations

import argparse
import email
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from email import policy
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
sys.path.insert(0, str(REPO))  # pbp, and the test fixtures' servers reused as is

import engine  # noqa: E402
from engine.seat_names import player_names  # noqa: E402
from tests.fixtures.mailserver import Dovecot, Player, SmtpServer  # noqa: E402
from pbp.demo.players import filled_reply_text, mail_text  # noqa: E402

IDLE_TARGET_SECONDS = 2.0
GUARD_SECONDS = float(os.environ.get("PBP_LATENCY_GUARD", "600"))


class Setup:
    def __init__(
        self, root: Path, dovecot: Dovecot, smtp: SmtpServer, idle: bool, poll_interval: float
    ):
        self.root, self.dovecot, self.smtp = root, dovecot, smtp
        root.mkdir()
        self.address = dovecot.add_user(dovecot.new_address("pbp", "bench.example"))
        self.players = [
            (
                name,
                Player(
                    dovecot.add_user(dovecot.new_address(name.lower(), "bench.example")),
                    dovecot,
                    smtp,
                ),
            )
            for name in player_names(5)
        ]
        (root / "password.txt").write_text(dovecot.passwords[self.address] + "\n")
        (root / "pbp.ini").write_text(f"""[pbp]
data = data
transport = imap
from_address = {self.address}
poll_interval = {poll_interval}
replies_per_sender_per_day = 100000

[imap]
host = {dovecot.host}
port = {dovecot.imap_port}
security = none
user = {self.address}
password_file = password.txt
idle = {"on" if idle else "off"}

[smtp]
host = {smtp.host}
port = {smtp.port}
security = none
""")
        (root / "roster.csv").write_text(
            "name,email\n" + "".join(f"{n},{p.address}\n" for n, p in self.players)
        )
        self.pbp(
            "new-game",
            "--ruleset",
            "infiltration",
            "--roster",
            "roster.csv",
            "--seed",
            "1",
            "--id",
            "g1",
            "--schedule",
            "default=24h",
            "--option",
            "reminders=off",
        )
        self.process: subprocess.Popen | None = None

    def pbp(self, *args: str) -> None:
        subprocess.run(
            [sys.executable, "-m", "pbp", *args, "--settings", "pbp.ini"],
            cwd=self.root,
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )

    def start(self) -> None:
        self.log = open(self.root / "run.log", "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pbp", "run", "--settings", "pbp.ini"],
            cwd=self.root,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        self.log.close()

    def wait_for_log(self, text: str) -> None:
        give_up = time.monotonic() + GUARD_SECONDS
        while text not in (self.root / "run.log").read_text(errors="replace"):
            if time.monotonic() > give_up or self.process.poll() is not None:
                raise self.given_up(f"pbp run never said {text!r}")
            time.sleep(0.05)

    def next_delivery_to(self, address: str, after: int):
        """The first message the SMTP server accepted for `address` at index >= `after`."""
        give_up = time.monotonic() + GUARD_SECONDS
        while time.monotonic() < give_up:
            for index in range(after, len(self.smtp.delivered)):
                if address in [r.lower() for r in self.smtp.delivered[index].recipients]:
                    return index, self.smtp.delivered[index]
            time.sleep(0.01)
        raise self.given_up(f"no mail reached {address} in {GUARD_SECONDS:g} s")

    def given_up(self, reason: str) -> SystemExit:
        """The exit that says why the run gave up, with the end of `pbp run`'s log: the data
        folder, log and all, is removed on the way out."""
        log = (self.root / "run.log").read_text(errors="replace").splitlines()[-30:]
        ended = "" if self.process is None else f" (pbp run exit code: {self.process.poll()})"
        return SystemExit("\n".join([reason + ended, "The end of pbp run's log:", *log]))

    def rounds(self, count: int) -> list[float]:
        """Latency of `count` order mails, one at a time, from the first player."""
        name, player = self.players[0]
        rules = engine.ruleset("infiltration")
        index, latest = self.next_delivery_to(player.address, 0)  # the welcome mail
        latencies = []
        for _round in range(count):
            message = email.message_from_bytes(latest.data, policy=policy.default)
            state = rules.from_json(self._record()["state"])
            body = filled_reply_text(
                mail_text(message), rules.scripted_orders(state, name, "1"), quote=False
            )
            mark = len(self.smtp.delivered)
            player.reply(message, body, quote=False)
            order_index, order = self.next_delivery_to(self.address, mark)
            index, latest = self.next_delivery_to(player.address, order_index + 1)
            latencies.append(latest.accepted_at - order.accepted_at)
        return latencies

    def _record(self) -> dict:
        import json

        data = json.loads((self.root / "data" / "games" / "g1.json").read_text())
        return next(iter(data["game"].values()))


def summary(latencies: list[float]) -> str:
    return (
        f"median {statistics.median(latencies):6.3f} s   min {min(latencies):6.3f} s   "
        f"max {max(latencies):6.3f} s   ({len(latencies)} rounds)"
    )


def measure(setup: "Setup", ready: str, rounds: int) -> list[float]:
    """Start `pbp run` in this setup, wait for its log to say `ready`, time `rounds` orders."""
    setup.start()
    try:
        setup.wait_for_log(ready)
        return setup.rounds(rounds)
    finally:
        setup.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rounds", type=int, default=20, help="order mails measured with IDLE (default 20)"
    )
    parser.add_argument(
        "--poll-rounds", type=int, default=3, help="order mails measured with polling (default 3)"
    )
    parser.add_argument(
        "--poll-interval", type=float, default=60.0, help="seconds between polls (default 60)"
    )
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="pbp-latency-"))
    dovecot = Dovecot().start()
    smtp = SmtpServer(dovecot).start()
    try:
        with_idle = measure(
            Setup(root / "idle", dovecot, smtp, idle=True, poll_interval=3600),
            "waiting in IMAP IDLE for new mail",
            args.rounds,
        )
        print(f"IDLE (poll every 3600 s)        {summary(with_idle)}")
        with_polls = measure(
            Setup(root / "poll", dovecot, smtp, idle=False, poll_interval=args.poll_interval),
            "pbp running",
            args.poll_rounds,
        )
        print(f"poll every {args.poll_interval:g} s, measured    {summary(with_polls)}")
        processing = statistics.median(with_idle)
        print(
            f"poll every {args.poll_interval:g} s, estimated   mean"
            f" {args.poll_interval / 2 + processing:6.3f} s for mail arriving at a random moment"
            " (half the interval + the IDLE median; an estimate, not a measurement)"
        )
        median = statistics.median(with_idle)
        verdict = "OK" if median < IDLE_TARGET_SECONDS else "TOO SLOW"
        print(f"IDLE median {median:.3f} s (need < {IDLE_TARGET_SECONDS:g} s): {verdict}")
        return 0 if median < IDLE_TARGET_SECONDS else 1
    finally:
        smtp.stop()
        dovecot.cleanup()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
