"""A backup taken while `pbp run` runs over real mail (the session's Dovecot and aiosmtpd),
laid out again in a new folder, continues the game (docs/design.md: Backup, restore and
moving a game).

Mail keeps arriving while the backup is taken: the daemon is held in the middle of sending
a receipt (the SMTP server holds its answer), so the backup has to wait for the lock,
and says so; an order arrives while it waits; the server is released; the backup is
taken between two cycles. The daemon's game (the twin that never stopped) and the restored
one then get the same orders: the restored one answers only what the snapshot had not
answered, loses nothing, and resolves to the same reports. Every step waits for a count
or an event, never for a time.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from pbp.storage.game_storage import game_tables
from tests.faults.site import GAME, NAMES, Site

pytestmark = pytest.mark.timeout(300)
TIME = re.compile(r"\d\d:\d\d")  # a deadline's time differs between two folders' phases


def test_a_backup_taken_under_a_running_daemon_continues_the_game(tmp_path, dovecot, smtp_server):
    smtp_server.reset()
    (tmp_path / "home").mkdir()
    home = Site(tmp_path / "home", dovecot, smtp_server, poll_interval=0.5).start()
    orders = {name: home.mail(address, home.block(name)) for name, address in home.players.items()}
    daemon = subprocess.Popen(
        [sys.executable, "-m", "pbp", "run", "--settings", str(home.settings)],
        cwd=home.root,
        stdout=open(home.root / "run.log", "wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        for name in NAMES[:3]:
            home.inject(orders[name])
        wait_for(lambda: len(receipts(home)) == 3, daemon, home)

        smtp_server.hold_next_data()
        home.inject(orders[NAMES[3]])
        assert smtp_server.data_held.wait(60), (
            "the daemon sent no receipt"
        )  # it holds the lock, sending
        backup = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pbp",
                "backup",
                str(tmp_path / "snap.tar.gz"),
                "--settings",
                str(home.settings),
            ],
            cwd=home.root,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert "waiting for the running pbp" in backup.stderr.readline()  # never while mail is sent
        home.inject(orders[NAMES[4]])  # mail keeps arriving
        smtp_server.release_data()
        out, err = backup.communicate(timeout=120)
        assert backup.returncode == 0, out + err
        home.inject(orders[NAMES[5]])
        wait_for(lambda: len(receipts(home)) == 6, daemon, home)
        home.pbp("advance", GAME)
        wait_for(lambda: len(sent(home, "report")) == 6, daemon, home)
    finally:
        daemon.terminate()
        daemon.wait(60)

    # The restored folder reads its own mailbox, into which every order is delivered again.
    restored = Site(tmp_path / "restored", dovecot, smtp_server, poll_interval=0.5)
    restored.moderator, restored.host, restored.players = home.moderator, home.host, home.players
    login = dovecot.add_user(dovecot.new_address("pbp-restored", "pbp.test"), "modpass")
    restored.root.mkdir()
    restored.write_settings(restored.sections(imap_user=login))
    assert restored.cli("restore", str(tmp_path / "snap.tar.gz")) == 0
    answered_before = {row["recipient"] for row in sent(restored, "receipt")}
    assert set(NAMES[:4]) <= answered_before and len(sent(restored, "report")) == 0
    mark = len(smtp_server.delivered)
    for name in NAMES:
        dovecot.deliver_raw(login, orders[name])
    restored.poll()

    answered_now = [d.recipients for d in smtp_server.delivered[mark:]]
    missing = [name for name in NAMES if name not in answered_before]
    assert sorted(answered_now) == sorted(
        [[home.players[name]] for name in missing]
    )  # nothing answered twice
    assert players_with_orders(restored) == players_with_orders(home) == set(NAMES)  # nothing lost
    assert restored.cli("advance", GAME) == 0
    assert restored.record()["state"] == home.record()["state"]
    assert report_texts(restored) == report_texts(home)


def wait_for(condition, daemon: subprocess.Popen, site: Site) -> None:
    """Until `condition` holds: the daemon's work is counted in the game file, read whole."""
    while not condition():
        if daemon.poll() is not None:
            raise AssertionError(f"pbp run stopped:\n{(site.root / 'run.log').read_text()}")
        try:
            daemon.wait(0.05)  # the daemon ending is the one thing that stops the wait early
        except subprocess.TimeoutExpired:
            pass


def outbox(site: Site) -> list[dict]:
    return list(game_tables(site.data / "games" / f"{GAME}.json").get("outbox", {}).values())


def sent(site: Site, kind: str) -> list[dict]:
    return [row for row in outbox(site) if row["kind"] == kind and row["status"] == "sent"]


def receipts(site: Site) -> list[dict]:
    return sent(site, "receipt")


def players_with_orders(site: Site) -> set[str]:
    return {row["player"] for row in site.orders()}


def report_texts(site: Site) -> list[tuple[str, str, str]]:
    return sorted(
        (row["recipient"], row["subject"], TIME.sub("", row["body"]))
        for row in outbox(site)
        if row["kind"] == "report"
    )
