"""IMAP IDLE against the real Dovecot (pbp.mail.imap.mailbox.wait_for_mail, pbp.daemon.idle.IdleWatcher).
Every wait here is for an event (an IDLE accepted, a mail announced); the timeouts are
only failure guards."""

from __future__ import annotations

import threading

import pytest

from pbp.daemon.idle import IdleWatcher
from pbp.mail.imap.mailbox import ImapMailbox

pytestmark = pytest.mark.integration
GUARD = 30.0


def open_box(dovecot, address) -> ImapMailbox:
    return ImapMailbox(dovecot.host, dovecot.imap_port, "none", address, dovecot.passwords[address])


def mail(subject: str) -> bytes:
    return f"From: someone@example.org\r\nSubject: {subject}\r\n\r\nhello\r\n".encode()


def test_wait_for_mail_returns_when_the_server_announces_a_delivery(mail_server):
    address = mail_server.add_user(mail_server.new_address("pbp"))
    box = open_box(mail_server, address)
    try:
        assert box.supports_idle()
        assert box.wait_for_mail(0.2) is False  # nothing came: IDLE ends at the time given
        delivered = threading.Event()

        def deliver_once_idle():
            mail_server.deliver_lmtp(address, mail("order"))
            delivered.set()

        assert box.wait_for_mail(GUARD, on_idle=deliver_once_idle) is True
        assert delivered.is_set()
        assert len(box.fetch_new(10)) == 1  # the same connection reads it afterwards
    finally:
        box.close()


def test_the_watcher_renews_idle_and_calls_for_a_cycle_on_new_mail(mail_server):
    address = mail_server.add_user(mail_server.new_address("pbp"))
    renewed, arrived = threading.Event(), threading.Event()
    said: list[str] = []
    watcher = IdleWatcher(
        lambda: open_box(mail_server, address),
        arrived.set,
        renew=0.2,
        say=said.append,
        on_idle=lambda count: count >= 3 and renewed.set(),
    )
    watcher.start()
    try:
        assert renewed.wait(GUARD), said  # IDLE ended and was issued again, twice, with no mail
        assert not arrived.is_set()
        mail_server.deliver_lmtp(address, mail("order"))
        assert arrived.wait(GUARD), said
    finally:
        watcher.stop()
    assert said == ["waiting in IMAP IDLE for new mail"]


def test_mail_waiting_when_a_connection_opens_is_reported_at_once(mail_server):
    """IDLE announces only what comes later: a connection opened (or reopened after a drop)
    while mail waits must not sit on it until the next renewal."""
    address = mail_server.add_user(mail_server.new_address("pbp"))
    mail_server.deliver_lmtp(address, mail("came while nobody listened"))
    box = open_box(mail_server, address)
    try:
        assert (
            box.wait_for_mail(
                GUARD, on_idle=lambda: pytest.fail("went into IDLE with mail waiting")
            )
            is True
        )
    finally:
        box.close()


class NoIdleMailbox:
    """A mailbox whose server lacks the IDLE capability (the adapter's answer)."""

    closed = False

    def supports_idle(self) -> bool:
        return False

    def close(self) -> None:
        self.closed = True


def test_a_server_without_idle_leaves_the_daemon_polling():
    said: list[str] = []
    box = NoIdleMailbox()
    watcher = IdleWatcher(lambda: box, lambda: None, renew=60, say=said.append)
    watcher.start()
    assert watcher.join(GUARD)  # it ends by itself
    assert said == ["the IMAP server does not offer IDLE; new mail is read at each poll"]
    assert box.closed
