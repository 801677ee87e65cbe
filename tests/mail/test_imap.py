"""ImapMailbox against a real Dovecot (docs/design.md: Reliability rules — Ingest)."""

from __future__ import annotations

import pytest

from pbp.mail.imap.mailbox import ImapMailbox
from pbp.ports import OversizedMail, RawMail

from tests.mail.helpers import crafted, order_mail

pytestmark = pytest.mark.integration


def imap_mailbox(dovecot, address: str, tls: bool = False, **options) -> ImapMailbox:
    if tls:
        return ImapMailbox(
            dovecot.host,
            dovecot.imaps_port,
            "tls",
            address,
            dovecot.passwords[address],
            ssl_context=dovecot.client_ssl_context(),
            **options,
        )
    return ImapMailbox(
        dovecot.host, dovecot.imap_port, "none", address, dovecot.passwords[address], **options
    )


@pytest.fixture
def moderator(mail_server):
    return mail_server.add_user(mail_server.new_address("moderator", "pbp.test"), "modpass")


def test_fetch_peeks_keys_by_uidvalidity_and_settle_moves(mail_server, moderator):
    first = order_mail("alice@example.org", message_id="<a1@x>")
    second = order_mail("bob@example.org", message_id="<b1@x>")
    mail_server.deliver_raw(moderator, first)
    mail_server.deliver_raw(moderator, second)
    mailbox = imap_mailbox(mail_server, moderator, tls=True)
    try:
        fetched = mailbox.fetch_new(limit=10)
        assert [mail.data for mail in fetched] == [first, second]
        uidvalidity = mailbox.uidvalidity
        assert [mail.key for mail in fetched] == [f"{uidvalidity}:1", f"{uidvalidity}:2"]
        with mail_server.imap(moderator) as client:  # BODY.PEEK[]: nothing marked seen
            client.select_folder("INBOX", readonly=True)
            assert len(client.search(["UNSEEN"])) == 2
        assert mailbox.fetch_new(limit=1)[0].key == fetched[0].key  # unsettled: fetched again

        mailbox.settle(fetched[0].key, "processed")
        mailbox.settle(fetched[1].key, "quarantine")
        mailbox.settle(fetched[0].key, "processed")  # idempotent: already gone
        mailbox.settle(fetched[1].key, "rejected")  # …whatever the outcome
        assert mailbox.fetch_new(limit=10) == []
        assert mail_server.count(moderator, "INBOX") == 0
        assert mail_server.count(moderator, "processed") == 1
        assert mail_server.count(moderator, "quarantine") == 1
        assert mail_server.count(moderator, "rejected") == 0
        assert mailbox.count("processed") == 1
    finally:
        mailbox.close()


def test_settle_with_an_old_uidvalidity_does_nothing(mail_server, moderator):
    mail_server.deliver_raw(moderator, crafted("alice@example.org", "HELP\n"))
    mailbox = imap_mailbox(mail_server, moderator)
    try:
        (mail,) = mailbox.fetch_new(limit=10)
        uid = mail.key.split(":")[1]
        mailbox.settle(f"{mailbox.uidvalidity + 1}:{uid}", "processed")
        assert mail_server.count(moderator, "INBOX") == 1
    finally:
        mailbox.close()


def test_oversized_mail_is_detected_before_download(mail_server, moderator):
    big = crafted('"Big Sender" <Big@Example.org>', "x" * 20_000 + "\n")
    mail_server.deliver_raw(moderator, big)
    mail_server.deliver_raw(moderator, crafted("small@example.org", "HELP\n"))
    mailbox = imap_mailbox(mail_server, moderator, max_bytes=10_000)
    try:
        oversized, small = mailbox.fetch_new(limit=10)
        assert isinstance(oversized, OversizedMail) and isinstance(small, RawMail)
        assert oversized.sender == "big@example.org" and oversized.size == len(big)
        with mail_server.imap(moderator) as client:  # not downloaded, so not seen either
            client.select_folder("INBOX", readonly=True)
            assert len(client.search(["UNSEEN"])) == 2
    finally:
        mailbox.close()


def test_reconnects_after_a_dropped_connection(mail_server, moderator):
    mailbox = imap_mailbox(mail_server, moderator, tls=True)
    try:
        assert mailbox.fetch_new(limit=10) == []
        mailbox._client.shutdown()  # the server side is gone as far as the client knows
        mail_server.deliver_raw(moderator, crafted("alice@example.org", "HELP\n"))
        (mail,) = mailbox.fetch_new(limit=10)
        mailbox._client.shutdown()
        mailbox.settle(mail.key, "processed")
        assert mail_server.count(moderator, "processed") == 1
    finally:
        mailbox.close()


def test_wrong_password_is_an_error(mail_server, moderator):
    mailbox = ImapMailbox(mail_server.host, mail_server.imap_port, "none", moderator, "wrong")
    with pytest.raises(Exception, match="(?i)auth"):
        mailbox.fetch_new(limit=1)


def test_a_download_in_parts_checks_each_mails_size_before_its_part_and_keeps_the_byte_budget(
    mail_server, moderator
):
    """The read-ahead child's download: the first part's sizes are asked alone (so it comes
    soon), every later part's in one command; whatever part a mail falls in, an oversized
    one is reported, not downloaded, and the parts stop where the poll's byte budget ends."""
    small = [
        crafted(f"p{n}@example.org", f"HELP {n}\n", message_id=f"<s{n}@example.org>")
        for n in range(5)
    ]
    big = crafted("big@example.org", "x" * 20_000 + "\n", message_id="<big@example.org>")
    for data in (small[0], small[1], big, small[2], small[3], small[4]):
        mail_server.deliver_raw(moderator, data)
    budget = (
        sum(len(data) for data in small[:4]) + len(small[4]) // 2
    )  # the fifth small mail is over it
    mailbox = imap_mailbox(mail_server, moderator, max_bytes=10_000, max_batch_bytes=budget)
    with mail_server.imap(moderator) as client:
        uidvalidity = client.select_folder("INBOX", readonly=True)[b"UIDVALIDITY"]
        uids = sorted(client.search(["ALL"]))
    try:
        parts = list(mailbox.download_parts(uidvalidity, uids, (1, 2)))
    finally:
        mailbox.close()
    kinds = [[type(item).__name__ for item in part] for part in parts]
    assert kinds == [["RawMail"], ["RawMail", "OversizedMail"], ["RawMail", "RawMail"], []]
    downloaded = [item.data for part in parts for item in part if isinstance(item, RawMail)]
    assert downloaded == small[:4]
    assert parts[1][1].sender == "big@example.org" and parts[1][1].size == len(big)
