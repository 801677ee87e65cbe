"""STARTTLS on both mail links, with the certificate verified against the test CA
(templates/settings.example.ini: `[imap]` and `[smtp]` each take TLS or STARTTLS).

IMAP: the fixture's Dovecot has `ssl = yes`, so its plain port offers STARTTLS.
SMTP: an aiosmtpd server of this module's own that requires STARTTLS before MAIL and
before AUTH, using the certificate the Dovecot fixture made (CN=localhost, IP 127.0.0.1).
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass, field

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from tests.fixtures.mailserver import LOOPBACK, free_port
from pbp.mail.compose import compose
from pbp.mail.imap.mailbox import ImapMailbox
from pbp.mail.smtp import SmtpSender
from pbp.ports import PermanentSendError, RawMail, TransientSendError

from tests.mail.helpers import order_mail

pytestmark = pytest.mark.integration
SMTP_USER, SMTP_PASSWORD = "pbp-host", "smtp-secret"


# ---------------------------------------------------------------------- IMAP
@pytest.fixture
def moderator(mail_server):
    return mail_server.add_user(mail_server.new_address("moderator", "pbp.test"), "modpass")


def starttls_mailbox(dovecot, address: str, context: ssl.SSLContext) -> ImapMailbox:
    return ImapMailbox(
        dovecot.host,
        dovecot.imap_port,
        "starttls",
        address,
        dovecot.passwords[address],
        ssl_context=context,
        timeout=10,
    )


def test_imap_starttls_upgrades_the_plain_port_and_works(mail_server, moderator):
    data = order_mail("alice@example.org", message_id="<starttls-1@x>")
    mail_server.deliver_raw(moderator, data)
    mailbox = starttls_mailbox(mail_server, moderator, mail_server.client_ssl_context())
    try:
        (fetched,) = mailbox.fetch_new(limit=10)
        assert isinstance(fetched, RawMail) and fetched.data == data
        connection = mailbox._client.socket()
        assert isinstance(connection, ssl.SSLSocket) and connection.version() in (
            "TLSv1.2",
            "TLSv1.3",
        )
        assert connection.getpeername()[1] == mail_server.imap_port  # the plain port, upgraded
        mailbox.settle(fetched.key, "processed")
    finally:
        mailbox.close()
    assert (
        mail_server.count(moderator, "processed") == 1
        and mail_server.count(moderator, "INBOX") == 0
    )


def test_imap_starttls_refuses_a_certificate_it_cannot_verify(mail_server, moderator):
    """A context without the test CA: the handshake fails, nothing is logged in or read."""
    mail_server.deliver_raw(moderator, order_mail("alice@example.org", message_id="<starttls-2@x>"))
    mailbox = starttls_mailbox(mail_server, moderator, ssl.create_default_context())
    try:
        with pytest.raises(ssl.SSLCertVerificationError):
            mailbox.fetch_new(limit=10)
    finally:
        mailbox.close()
    assert mail_server.count(moderator, "INBOX") == 1


# ---------------------------------------------------------------------- SMTP
@dataclass
class Received:
    mail_from: str
    recipients: list[str]
    data: bytes
    tls_cipher: tuple | None
    authenticated_as: str | None


@dataclass
class RecordingHandler:
    received: list[Received] = field(default_factory=list)

    async def handle_DATA(self, server, session, envelope):
        self.received.append(
            Received(
                envelope.mail_from,
                list(envelope.rcpt_tos),
                envelope.original_content or envelope.content,
                session.ssl.get("cipher") if session.ssl else None,
                session.auth_data if session.authenticated else None,
            )
        )
        return "250 OK"


def check_password(server, session, envelope, mechanism, auth_data) -> AuthResult:
    good = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == (
        SMTP_USER.encode(),
        SMTP_PASSWORD.encode(),
    )
    return AuthResult(success=good, auth_data=SMTP_USER if good else None)


@pytest.fixture
def starttls_smtp(dovecot):
    """aiosmtpd that answers 530 to anything but EHLO/STARTTLS until TLS is on."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(dovecot.root / "cert.pem"), str(dovecot.root / "key.pem"))
    handler = RecordingHandler()
    controller = Controller(
        handler,
        hostname=LOOPBACK,
        port=free_port(),
        tls_context=context,
        require_starttls=True,
        authenticator=check_password,
        auth_require_tls=True,
        ready_timeout=10,
    )
    controller.start()
    try:
        yield controller, handler
    finally:
        controller.stop()


def a_report(recipient: str) -> object:
    return compose(
        "moderator@pbp.test",
        recipient,
        "Your report",
        "Héllo over TLS.\n",
        "<tls-report-1@pbp.test>",
    )


def test_smtp_starttls_with_login_delivers(starttls_smtp, dovecot):
    controller, handler = starttls_smtp
    sender = SmtpSender(
        controller.hostname,
        controller.port,
        "starttls",
        SMTP_USER,
        SMTP_PASSWORD,
        timeout=10,
        ssl_context=dovecot.client_ssl_context(),
    )
    try:
        sender.send(a_report("alice@example.org"))
        sender.send(a_report("bob@example.org"))  # the same encrypted connection, kept
    finally:
        sender.close()
    first, second = handler.received
    assert first.tls_cipher is not None and first.authenticated_as == SMTP_USER
    assert first.recipients == ["alice@example.org"] and second.recipients == ["bob@example.org"]
    assert b"Subject: Your report" in first.data and first.mail_from == "moderator@pbp.test"


def test_smtp_without_starttls_is_refused_permanently(starttls_smtp):
    """A server that requires STARTTLS answers 530: a setting to fix, not a retry."""
    controller, handler = starttls_smtp
    sender = SmtpSender(controller.hostname, controller.port, "none", timeout=10)
    try:
        with pytest.raises(PermanentSendError, match="530"):
            sender.send(a_report("alice@example.org"))
    finally:
        sender.close()
    assert handler.received == []


def test_smtp_starttls_refuses_a_certificate_it_cannot_verify(starttls_smtp):
    controller, handler = starttls_smtp
    sender = SmtpSender(
        controller.hostname,
        controller.port,
        "starttls",
        SMTP_USER,
        SMTP_PASSWORD,
        timeout=10,
        ssl_context=ssl.create_default_context(),
    )
    try:
        with pytest.raises(TransientSendError) as caught:
            sender.send(a_report("alice@example.org"))
    finally:
        sender.close()
    assert isinstance(caught.value.__cause__, ssl.SSLCertVerificationError)
    assert handler.received == []
