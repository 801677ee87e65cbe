"""Fault cases f060–f069: crashes and a changed mailbox (design.md: Reliability rules —
Ingest, Outbox, Storage). `pbp run` is a real process killed with SIGKILL; Dovecot and
aiosmtpd are real; the shared oracle runs after each case. The long run is a command:
`python3 benchmarks/faults.py --kills 50`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from tests.faults.crash import kill_round, start_run
from tests.fixtures.waiting import wait_until
from tests.faults.oracle import Watch
from tests.faults.site import NAMES, Site

pytestmark = pytest.mark.integration
KILLS = int(os.environ.get("PBP_FAULT_KILLS", "3"))  # CI: a few; benchmarks/faults.py: 50


@pytest.fixture(scope="module")
def site(tmp_path_factory, dovecot, smtp_server):
    """The rounds send many wrong tokens on purpose; the rate limit is not under test here."""
    return Site(
        tmp_path_factory.mktemp("faults-crash"),
        dovecot,
        smtp_server,
        wrong_tokens_per_day=1_000_000,
    ).start()


@pytest.mark.parametrize("seed", range(KILLS))
def test_f060_sigkill_at_a_random_moment_during_ingest_of_200_mails(site, seed):
    """Threat: a power cut at any moment while 200 mails are read, judged, filed and
    answered. After a restart nothing is lost or done twice; a mail reaches a player twice
    only inside the SMTP DATA window, with the same Message-ID (at most one per kill)."""
    assert kill_round(site, seed) <= 1


def test_f061_sigkill_inside_the_smtp_data_window(site, smtp_server):
    """Threat: the kill falls after the server has the whole message and before its
    answer: the restart sends that mail again, with the same Message-ID, and nothing else
    twice. The server holds the answer until the test has killed pbp (no timing)."""
    watch = Watch(site)
    mails = site.inject(
        site.mail(site.players["Alice"], "HELP"), site.mail(site.players["Bruno"], "HELP")
    )
    smtp_server.hold_next_data()
    process = subprocess.Popen(
        [sys.executable, "-m", "pbp", "poll", "--settings", str(site.settings)],
        cwd=site.root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert smtp_server.data_held.wait(timeout=120), "pbp never reached DATA"
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        smtp_server.release_data()
    site.poll()
    outcome = watch.check(mails)
    ids = [str(m["Message-ID"]) for mails_ in outcome.mail.values() for m in mails_]
    assert len(ids) == 3 and len(set(ids)) == 2


def _reset_uidvalidity(site: Site) -> None:
    """Make Dovecot renumber pbp's INBOX, as after a restore: without its UID list and
    indexes it gives the same mail new UIDs under a new UIDVALIDITY."""
    with site.dovecot.imap(site.moderator) as client:
        old = client.select_folder("INBOX", readonly=True)[b"UIDVALIDITY"]
    home = site.dovecot.root / "mail" / site.moderator
    for path in [home / "dovecot-uidlist", *home.glob("dovecot.index*")]:
        path.unlink(missing_ok=True)
    with site.dovecot.imap(site.moderator) as client:
        new = client.select_folder("INBOX", readonly=True)[b"UIDVALIDITY"]
    assert new != old


def test_f062_a_uidvalidity_reset_between_polls_loses_and_doubles_nothing(site):
    """Threat: the server renumbers the INBOX (a restore, a migration) after pbp spooled
    mail and was killed before filing it. Under the new UIDs the same mails are
    recognised by their bytes: each is filed once, no order or answer is doubled."""
    watch = Watch(site)
    mails = site.inject(*[site.mail(site.players[name], site.block(name)) for name in NAMES])
    crashed = site.pbp("poll", env={"PBP_CRASH_AT": "after-spool"}, check=False)
    assert crashed.returncode == -signal.SIGKILL
    _reset_uidvalidity(site)
    site.poll()
    site.poll()
    outcome = watch.check(mails, may_change=set(NAMES))
    assert sorted(row["player"] for row in outcome.orders) == sorted(NAMES)
    assert all(len(outcome.mail[name]) == 1 for name in NAMES)


def test_f063_a_second_pbp_run_on_the_same_data_is_refused(site):
    """Threat: two daemons on one data folder would both write it. The second is refused
    with one clear line, and the first goes on."""
    first = start_run(site)
    try:
        wait_until(
            lambda: "pbp running" in (site.root / "run.log").read_text(errors="replace"),
            60,
            "pbp run did not start",
        )
        second = site.pbp("run", check=False)
        assert second.returncode != 0 and first.poll() is None
        lines = second.stderr.strip().splitlines()
        assert (
            len(lines) == 1 and "already running" in lines[0] and "Traceback" not in second.stderr
        )
    finally:
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=30)
    assert first.returncode in (0, -signal.SIGTERM)
