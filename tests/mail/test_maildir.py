"""The embedded Maildir transport (docs/design.md: Embedded default; Reliability rules —
Ingest). The spool has its own tests: test_spool.py."""

from __future__ import annotations

from pbp.mail.ingest.ingest_cycle import poll_once
from pbp.mail.compose import compose
from pbp.mail.maildir import MaildirMailbox, MaildirSender, deliver
from pbp.mail.ingest.spool import Spool

from tests.mail.helpers import FakeDesk, crafted, order_mail


def test_sender_writes_the_outbox_and_the_recipients_own_maildir(tmp_path):
    sender = MaildirSender(tmp_path / "mail")
    message = compose(
        "moderator@pbp.test", "Alice@Example.org", "Report", "Hello\n", "<r1@pbp.test>"
    )
    sender.send(message)
    sender.send(message)  # a resend after a crash replaces the copy
    sender.send(compose("moderator@pbp.test", "bob@example.org", "Report", "Hi\n", "<r2@pbp.test>"))
    alice = MaildirMailbox(tmp_path / "mail" / "alice@example.org")
    (received,) = alice.fetch_new(limit=10)
    assert received.data == message.as_bytes()
    assert MaildirMailbox(tmp_path / "mail" / "outbox").count() == 2
    alice.settle(received.key, "processed")
    alice.settle(received.key, "processed")  # idempotent
    assert alice.count("inbox") == 0 and alice.count("processed") == 1


def test_poll_once_over_the_embedded_maildir(tmp_path):
    inbox = tmp_path / "mail" / "inbox"
    deliver(inbox, order_mail("alice@example.org"))
    deliver(inbox, crafted("bob@example.org", "x" * 2000, subject="big"))
    mailbox = MaildirMailbox(inbox, max_bytes=1000)
    desk = FakeDesk()
    report = poll_once(
        mailbox, desk, Spool(tmp_path / "spool"), ["moderator@pbp.test"], 1000, together=False
    )
    assert [outcome for _key, outcome in report.processed] == ["processed"]
    assert [mail.sender for mail in report.oversized] == ["bob@example.org"]
    assert (
        mailbox.count("inbox") == 0
        and mailbox.count("processed") == 1
        and mailbox.count("rejected") == 1
    )


def test_a_poll_reads_at_most_its_byte_budget_and_at_least_one_mail(tmp_path):
    """A backlog of large mails is read over several polls, never all into memory at once
    (as over IMAP); a mail larger than the whole budget is still read, alone."""
    box = MaildirMailbox(tmp_path / "inbox", max_bytes=100_000, max_batch_bytes=5_000)
    for number in range(5):
        deliver(
            tmp_path / "inbox",
            crafted(f"p{number}@example.org", "x" * 2_000 + "\n", message_id=f"<b{number}@x>"),
            name=f"m{number}",
        )
    polls = []
    while fetched := box.fetch_new(limit=100):
        polls.append(len(fetched))
        box.settle_many([item.key for item in fetched], "processed")
    assert polls == [2, 2, 1]
    deliver(
        tmp_path / "inbox",
        crafted("big@example.org", "y" * 8_000 + "\n", message_id="<big@x>"),
        name="big",
    )
    assert [item.key for item in box.fetch_new(limit=100)] == ["big"]
