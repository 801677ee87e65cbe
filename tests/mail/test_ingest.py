"""poll_once against the real Dovecot with a small desk behind the OrderDesk port
(docs/design.md: Reliability rules — Ingest: spool first, identity by (UIDVALIDITY, UID) and
SHA-256, move only after the commit, three strikes to quarantine)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pbp.mail.ingest.ingest_cycle import poll_once
from pbp.mail.imap.mailbox import ImapMailbox
from pbp.mail.ingest.spool import Spool

from tests.fixtures.crash_scripts import run_killing_poll
from tests.mail.helpers import FakeDesk, crafted, order_mail

pytestmark = pytest.mark.integration
MAX_BYTES = 50_000


@pytest.fixture
def moderator(mail_server):
    return mail_server.add_user(mail_server.new_address("moderator", "pbp.test"), "modpass")


@pytest.fixture
def mailbox(mail_server, moderator):
    box = ImapMailbox(
        mail_server.host, mail_server.imap_port, "none", moderator, "modpass", max_bytes=MAX_BYTES
    )
    yield box
    box.close()


def poll(mailbox, desk, spool, moderator):
    return poll_once(mailbox, desk, spool, [moderator], MAX_BYTES, together=False)


class SpoolWatchingDesk(FakeDesk):
    """Checks, at the moment it is asked, that the mail is already in the spool."""

    def __init__(self, spool: Spool) -> None:
        super().__init__()
        self.spool = spool
        self.spooled_when_received: list[bool] = []

    def receive(self, mail):
        spooled = {entry.identity for entry in self.spool.pending()}
        self.spooled_when_received.append((mail.key, mail.sha256) in spooled)
        return super().receive(mail)


def test_spool_before_anything_then_settle_after_commit(mail_server, moderator, mailbox, tmp_path):
    spool = Spool(tmp_path / "spool")
    desk = SpoolWatchingDesk(spool)
    mail_server.deliver_raw(moderator, order_mail("alice@example.org", message_id="<a@x>"))
    mail_server.deliver_raw(moderator, crafted("bob@example.org", "HELP\n", message_id="<b@x>"))
    report = poll(mailbox, desk, spool, moderator)
    assert desk.spooled_when_received == [True, True]
    assert [outcome for _key, outcome in report.processed] == ["processed", "rejected"]
    assert desk.received[0].blocks[0].lines == ("MOVE 1A",) and desk.received[1].commands == (
        "HELP",
    )
    assert (
        mail_server.count(moderator, "processed") == 1
        and mail_server.count(moderator, "rejected") == 1
    )
    assert mail_server.count(moderator, "INBOX") == 0
    assert spool.pending() == [] and list((tmp_path / "spool").glob("batch-*")) == []
    assert poll(mailbox, desk, spool, moderator).idle


def test_three_strikes_to_quarantine(mail_server, moderator, mailbox, tmp_path):
    spool = Spool(tmp_path / "spool")
    desk = FakeDesk(poison="poison")
    mail_server.deliver_raw(
        moderator, crafted("mallory@example.org", "HELP\n", subject="poison", message_id="<p@x>")
    )
    mail_server.deliver_raw(moderator, order_mail("alice@example.org", message_id="<a@x>"))
    first = poll(mailbox, desk, spool, moderator)
    assert len(first.failed) == 1 and "choked" in first.failed[0][1]
    assert [outcome for _key, outcome in first.processed] == ["processed"]  # the other mail goes on
    second = poll(mailbox, desk, spool, moderator)
    assert len(second.failed) == 1 and second.quarantined == []
    third = poll(mailbox, desk, spool, moderator)
    (quarantined,) = third.quarantined
    assert quarantined.sender == "mallory@example.org" and "3 times" in quarantined.reason
    assert (
        mail_server.count(moderator, "quarantine") == 1
        and mail_server.count(moderator, "INBOX") == 0
    )
    assert poll(mailbox, desk, spool, moderator).idle
    assert spool.pending() == []


def test_the_same_mail_delivered_twice_is_processed_once(mail_server, moderator, mailbox, tmp_path):
    spool, desk = Spool(tmp_path / "spool"), FakeDesk()
    data = order_mail("alice@example.org", message_id="<twice@x>")
    mail_server.deliver_raw(moderator, data)
    mail_server.deliver_raw(moderator, data)
    report = poll(mailbox, desk, spool, moderator)
    assert len(desk.received) == 1
    assert len(report.processed) == 1 and len(report.resettled) == 1
    assert (
        mail_server.count(moderator, "processed") == 2
        and mail_server.count(moderator, "INBOX") == 0
    )


def test_oversized_mail_is_rejected_without_download_and_reported(
    mail_server, moderator, mailbox, tmp_path
):
    spool, desk = Spool(tmp_path / "spool"), FakeDesk()
    mail_server.deliver_raw(
        moderator, crafted("Alice <alice@example.org>", "x" * (MAX_BYTES + 10) + "\n")
    )
    report = poll(mailbox, desk, spool, moderator)
    (oversized,) = report.oversized
    assert oversized.sender == "alice@example.org" and oversized.size > MAX_BYTES
    assert desk.received == [] and spool.pending() == []
    assert mail_server.count(moderator, "rejected") == 1


def test_after_a_crash_past_the_commit_the_mail_is_only_settled(
    mail_server, moderator, mailbox, tmp_path
):
    """The desk says "already handled": the message is moved, the desk is not asked again."""
    spool, desk = Spool(tmp_path / "spool"), FakeDesk()
    data = order_mail("alice@example.org", message_id="<c@x>")
    mail_server.deliver_raw(moderator, data)
    (raw,) = mailbox.fetch_new(limit=10)
    spool.store([raw])  # spooled by the run that crashed…
    desk.by_key[raw.key] = desk.by_sha[raw.sha256] = "processed"  # …after its commit
    report = poll(mailbox, desk, spool, moderator)
    assert report.resettled == [(raw.key, "processed")] and report.processed == []
    assert desk.received == []
    assert mail_server.count(moderator, "processed") == 1 and spool.pending() == []


def run_poll_process(
    tmp_path: Path, mail_server, moderator: str, crash_at: str | None
) -> subprocess.CompletedProcess:
    return run_killing_poll(
        tmp_path, mail_server, moderator, FakeDesk, MAX_BYTES, crash_at, together=False
    )


@pytest.mark.parametrize("crash_at", ["after-spool", "after-commit"])
def test_a_process_killed_at_a_crash_point_loses_nothing_and_repeats_nothing(
    crash_at, mail_server, moderator, tmp_path
):
    mail_server.deliver_raw(moderator, order_mail("alice@example.org", message_id="<k1@x>"))
    mail_server.deliver_raw(moderator, order_mail("bob@example.org", message_id="<k2@x>"))
    killed = run_poll_process(tmp_path, mail_server, moderator, crash_at)
    assert killed.returncode == -9, killed.stderr
    assert mail_server.count(moderator, "INBOX") == 2  # nothing moved before the commit…
    assert list((tmp_path / "spool").glob("batch-*.spool"))  # …and everything spooled
    restarted = run_poll_process(tmp_path, mail_server, moderator, None)
    assert restarted.returncode == 0, restarted.stderr
    result = json.loads(restarted.stdout)
    if crash_at == "after-commit":  # the first mail was committed by the killed run
        assert result["received"] == ["<k2@x>"] and len(result["resettled"]) == 1
    else:
        assert result["received"] == ["<k1@x>", "<k2@x>"] and result["resettled"] == []
    assert (
        mail_server.count(moderator, "processed") == 2
        and mail_server.count(moderator, "INBOX") == 0
    )
    handled = json.loads((tmp_path / "desk.json").read_text())
    assert len(handled["by_key"]) == 2


def test_a_mail_that_kills_the_process_three_times_is_quarantined(mail_server, moderator, tmp_path):
    mail_server.deliver_raw(
        moderator, crafted("eve@example.org", "HELP\n", subject="deadly", message_id="<d@x>")
    )
    mail_server.deliver_raw(moderator, order_mail("alice@example.org", message_id="<ok@x>"))
    for _attempt in range(3):
        assert run_poll_process(tmp_path, mail_server, moderator, None).returncode == -9
    survivor = run_poll_process(tmp_path, mail_server, moderator, None)
    assert survivor.returncode == 0, survivor.stderr
    result = json.loads(survivor.stdout)
    assert len(result["quarantined"]) == 1 and result["received"] == ["<ok@x>"]
    assert mail_server.count(moderator, "quarantine") == 1
    assert (
        mail_server.count(moderator, "processed") == 1
        and mail_server.count(moderator, "INBOX") == 0
    )
