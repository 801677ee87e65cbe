"""Crash rounds for the fault suite and benchmarks/faults.py: `pbp run` (a real process)
is SIGKILLed at a seeded random moment while it ingests a batch of mails, then `pbp poll`
finishes the work; the shared oracle then checks conservation (every mail filed once, no
secret leaked, only roster and host mailed, the game changed only by orders) and the
outbox's rule: a mail may reach its recipient twice only when the kill fell inside the
SMTP DATA window, and then with the same Message-ID."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from collections import Counter

from tests.faults.oracle import TOTALS, Watch
from tests.faults.site import NAMES, Site

STRANGER = "stranger@attacker.test"
START_TIMEOUT = 60.0


def round_mails(site: Site, rng: random.Random, count: int) -> list[bytes]:
    """A seeded mix of what a game's inbox holds: valid orders, wrong tokens, commands,
    strangers, automatic mail."""
    mails = []
    for number in range(count):
        name = rng.choice(NAMES)
        address = site.players[name]
        kind = rng.randrange(6)
        if kind <= 1:
            mails.append(site.mail(address, site.block(name)))
        elif kind == 2:
            mails.append(site.mail(address, site.block(name, token=f"wrong{number:05d}")))
        elif kind == 3:
            mails.append(site.mail(address, rng.choice(["HELP", "STATUS", "FORM"])))
        elif kind == 4:
            mails.append(site.mail(f"{STRANGER}", f"hello {number}"))
        else:
            mails.append(site.mail(address, "I am away.", headers="Auto-Submitted: auto-replied"))
    return mails


def start_run(site: Site) -> subprocess.Popen:
    """`pbp run` in its own process; `run.log` holds what this one says."""
    log = open(site.root / "run.log", "wb")
    return subprocess.Popen(
        [sys.executable, "-m", "pbp", "run", "--settings", str(site.settings)],
        cwd=site.root,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=dict(os.environ),
    )


def kill_round(site: Site, seed: int, count: int = 200, window: float = 4.0) -> int:
    """One round; returns how many mails were delivered twice (same Message-ID)."""
    rng = random.Random(seed)
    watch = Watch(site)
    mails = site.inject(*round_mails(site, rng, count))
    process = start_run(site)
    try:
        process.wait(timeout=rng.uniform(0.3, window))  # a seeded moment; the round holds at any
    except subprocess.TimeoutExpired:
        pass
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    elif process.returncode != 0:
        TOTALS.deaths += 1
        raise AssertionError(
            f"pbp run stopped by itself ({process.returncode}): "
            f"{(site.root / 'run.log').read_text(errors='replace')[-2000:]}"
        )
    process.wait(timeout=30)
    site.poll()  # the restart finishes the work
    site.poll()
    outcome = watch.check(mails, may_change=set(NAMES))
    return duplicates(site, watch, outcome)


def duplicates(site: Site, watch: Watch, outcome) -> int:
    """Mail delivered more than once: only with the same Message-ID (the DATA window), and
    every sent row of the outbox delivered."""
    ids = Counter(
        str(message["Message-ID"]) for mails in outcome.mail.values() for message in mails
    )
    rows = [row for row in site.tables()["outbox"].values()]
    assert all(row["status"] == "sent" for row in rows), [
        row for row in rows if row["status"] != "sent"
    ]
    sent_ids = {row["message_id"] for row in rows}
    assert set(ids) <= sent_ids, set(ids) - sent_ids
    return sum(count - 1 for count in ids.values())
