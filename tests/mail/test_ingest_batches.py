"""poll_once with a desk that commits a fetched batch in one durable write (pbp.mail.ingest.ingest_cycle;
docs/design.md: Reliability rules — Ingest: "one durable write may cover a whole fetched
batch"; "only then flag or move it on the server"; "A message that crashes processing
three times goes to quarantine"), against the real Dovecot."""

from __future__ import annotations

import contextlib
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


class BatchingDesk(FakeDesk):
    """FakeDesk whose `batch()` holds every receive in memory and writes them all at its
    end, or none when the batch raises (what pbp.desk.Desk.batch does with game files).
    It records, at each receive and at each commit, how many messages the server had
    already moved, to prove nothing moves before the commit."""

    def __init__(
        self, state_file: Path | None = None, poison: str | None = None, moved=lambda: 0
    ) -> None:
        super().__init__(None, poison)
        self.durable = state_file
        self.moved = moved
        self.commits: list[int] = []  # messages recorded by each durable write
        self.moved_at_commit: list[int] = []
        self.in_batch = False
        if state_file is not None and state_file.exists():
            state = json.loads(state_file.read_text())
            self.by_key, self.by_sha = state["by_key"], state["by_sha"]

    def receive(self, mail):
        outcome = super().receive(mail)
        if not self.in_batch:  # judged alone: committed at once
            self._write()
        return outcome

    @contextlib.contextmanager
    def batch(self):
        saved = (dict(self.by_key), dict(self.by_sha), list(self.received))
        self.in_batch = True
        try:
            yield
        except BaseException:
            self.by_key, self.by_sha, self.received = saved[0], saved[1], saved[2]
            raise
        finally:
            self.in_batch = False
        self.moved_at_commit.append(self.moved())
        self.commits.append(len(self.by_key) - len(saved[0]))
        self._write()

    def _write(self) -> None:
        if self.durable is not None:
            self.durable.write_text(json.dumps({"by_key": self.by_key, "by_sha": self.by_sha}))


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


def moved(mail_server, moderator):
    return lambda: (
        mail_server.count(moderator, "processed") + mail_server.count(moderator, "rejected")
    )


def test_a_batch_is_committed_once_and_moved_only_after(mail_server, moderator, mailbox, tmp_path):
    for number in range(6):
        mail_server.deliver_raw(
            moderator, order_mail(f"p{number}@example.org", message_id=f"<b{number}@x>")
        )
    mail_server.deliver_raw(moderator, crafted("q@example.org", "HELP\n", message_id="<help@x>"))
    spool = Spool(tmp_path / "spool")
    desk = BatchingDesk(moved=moved(mail_server, moderator))
    report = poll_once(mailbox, desk, spool, [moderator], MAX_BYTES)
    assert desk.commits == [7] and desk.moved_at_commit == [0]
    assert sorted(outcome for _key, outcome in report.processed) == ["processed"] * 6 + ["rejected"]
    assert (
        mail_server.count(moderator, "processed") == 6
        and mail_server.count(moderator, "rejected") == 1
    )
    assert mail_server.count(moderator, "INBOX") == 0
    assert spool.pending() == [] and list((tmp_path / "spool").glob("batch-*")) == []
    assert list((tmp_path / "spool" / "claims").iterdir()) == []  # a batch leaves no claim files
    assert poll_once(mailbox, desk, spool, [moderator], MAX_BYTES).idle


def test_a_message_that_raises_in_a_batch_is_left_out_and_quarantined_on_its_third_strike(
    mail_server, moderator, mailbox, tmp_path
):
    mail_server.deliver_raw(moderator, order_mail("a@example.org", message_id="<a@x>"))
    mail_server.deliver_raw(
        moderator, crafted("m@example.org", "HELP\n", subject="poison", message_id="<p@x>")
    )
    mail_server.deliver_raw(moderator, order_mail("b@example.org", message_id="<b@x>"))
    spool = Spool(tmp_path / "spool")
    desk = BatchingDesk(poison="poison")
    first = poll_once(mailbox, desk, spool, [moderator], MAX_BYTES)
    assert len(first.failed) == 1 and "choked" in first.failed[0][1]
    # the batch holding the poison was discarded; the others were judged again, once, without it
    assert desk.commits == [2] and [m.message_id for m in desk.received] == ["<a@x>", "<b@x>"]
    assert (
        mail_server.count(moderator, "processed") == 2
        and mail_server.count(moderator, "INBOX") == 1
    )
    second = poll_once(
        mailbox, desk, spool, [moderator], MAX_BYTES
    )  # now alone: one claim each time
    assert len(second.failed) == 1 and second.quarantined == []
    third = poll_once(mailbox, desk, spool, [moderator], MAX_BYTES)
    (quarantined,) = third.quarantined
    assert quarantined.sender == "m@example.org" and "3 times" in quarantined.reason
    assert (
        mail_server.count(moderator, "quarantine") == 1
        and mail_server.count(moderator, "INBOX") == 0
    )
    assert spool.pending() == []


def run_poll(tmp_path: Path, mail_server, moderator: str) -> subprocess.CompletedProcess:
    return run_killing_poll(tmp_path, mail_server, moderator, BatchingDesk, MAX_BYTES)


def test_a_mail_that_kills_a_batch_costs_its_batch_mates_one_strike_only(
    mail_server, moderator, tmp_path
):
    """Killed three times by one mail: that mail is quarantined. Its batch-mates got one
    strike from the killed batch; each is then judged alone and committed exactly once."""
    mail_server.deliver_raw(moderator, order_mail("a@example.org", message_id="<before@x>"))
    mail_server.deliver_raw(
        moderator, crafted("eve@example.org", "HELP\n", subject="deadly", message_id="<d@x>")
    )
    mail_server.deliver_raw(moderator, order_mail("b@example.org", message_id="<after@x>"))
    assert run_poll(tmp_path, mail_server, moderator).returncode == -9  # in the batch
    assert mail_server.count(moderator, "INBOX") == 3  # nothing committed, nothing moved
    assert run_poll(tmp_path, mail_server, moderator).returncode == -9  # alone, after <before@x>
    assert (
        mail_server.count(moderator, "processed") == 1
        and mail_server.count(moderator, "INBOX") == 2
    )
    assert run_poll(tmp_path, mail_server, moderator).returncode == -9  # alone, third strike
    survivor = run_poll(tmp_path, mail_server, moderator)
    assert survivor.returncode == 0, survivor.stderr
    result = json.loads(survivor.stdout)
    assert result["quarantined"] == ["eve@example.org"]
    assert (
        result["received"] == ["<after@x>"] and result["processed"] == 1 and result["commits"] == []
    )
    handled = json.loads((tmp_path / "desk.json").read_text())
    assert len(handled["by_key"]) == 2
    assert (
        mail_server.count(moderator, "quarantine") == 1
        and mail_server.count(moderator, "processed") == 2
    )
    assert mail_server.count(moderator, "INBOX") == 0
    assert Spool(tmp_path / "spool").pending() == []


def test_a_backlog_is_fetched_in_parts_that_fit_the_byte_budget(mail_server, moderator):
    """No poll downloads more than `max_batch_bytes` (but always at least one message);
    oversized mail is reported without being downloaded, so it does not count."""
    body = "x" * 1500 + "\n"
    for number in range(3):
        mail_server.deliver_raw(
            moderator, crafted(f"p{number}@example.org", body, message_id=f"<big{number}@x>")
        )
    mail_server.deliver_raw(
        moderator, crafted("huge@example.org", "y" * (MAX_BYTES + 10) + "\n", message_id="<huge@x>")
    )
    box = ImapMailbox(
        mail_server.host,
        mail_server.imap_port,
        "none",
        moderator,
        "modpass",
        max_bytes=MAX_BYTES,
        max_batch_bytes=3500,
    )
    try:
        seen = []
        while True:
            fetched = box.fetch_new(limit=10)
            if not fetched:
                break
            seen.append([type(item).__name__ for item in fetched])
            box.settle_many([item.key for item in fetched], "processed")
    finally:
        box.close()
    assert seen == [["RawMail", "RawMail"], ["RawMail", "OversizedMail"]]
    assert mail_server.count(moderator, "processed") == 4
