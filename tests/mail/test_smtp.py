"""SmtpSender → aiosmtpd → Dovecot, read back over IMAP (docs/design.md: Reliability rules —
Outbox: transient errors retried, permanent ones recorded)."""

from __future__ import annotations

import pytest

from tests.fixtures.mailserver import free_port
from pbp.mail.compose import compose
from pbp.mail.smtp import SmtpSender
from pbp.ports import PermanentSendError, TransientSendError

pytestmark = pytest.mark.integration
MODERATOR = "moderator@pbp.test"


@pytest.fixture
def sender(smtp_server):
    sender = SmtpSender(smtp_server.host, smtp_server.port, "none")
    yield sender
    sender.close()


def report(recipient: str, number: int, **options):
    return compose(
        MODERATOR,
        recipient,
        f"Report {number}",
        f"Héllo, report {number}.\nBEGIN ORDERS g1 T2-movement\n",
        f"<report-{number}.{recipient.split('@')[0]}@pbp.test>",
        **options,
    )


def test_sent_mail_reaches_the_players_imap_mailbox(sender, make_player, smtp_server):
    alice, bob = make_player("alice"), make_player("bob")
    sender.send(report(alice.address, 1, in_reply_to="<orders-1@example.org>"))
    sender.send(report(bob.address, 2))
    sender.send(report(alice.address, 3))  # the kept connection is reused
    first, third = alice.read_new(at_least=2)
    assert first["Subject"] == "Report 1" and third["Subject"] == "Report 3"
    assert first["Message-ID"] == f"<report-1.{alice.address.split('@')[0]}@pbp.test>"
    assert first["In-Reply-To"] == "<orders-1@example.org>"
    assert first["Auto-Submitted"] == "auto-replied"
    assert first["To"] == alice.address
    assert "Héllo, report 1." in first.get_content()
    (received,) = bob.read_new()
    assert received["Subject"] == "Report 2" and alice.address not in received.as_string()
    # envelope: one recipient per message, from the moderator address
    assert [d.recipients for d in smtp_server.delivered[-3:]] == [
        [alice.address],
        [bob.address],
        [alice.address],
    ]
    assert smtp_server.delivered[-1].envelope_from == MODERATOR


def test_451_is_transient_and_550_is_permanent(sender, make_player, smtp_server):
    later, never, fine = make_player("later"), make_player("never"), make_player("fine")
    smtp_server.answer_rcpt(later.address, "451 4.3.0 Try again later")
    smtp_server.answer_rcpt(never.address, "550 5.1.1 Mailbox unavailable")
    with pytest.raises(TransientSendError, match="451"):
        sender.send(report(later.address, 1))
    with pytest.raises(PermanentSendError, match="550"):
        sender.send(report(never.address, 2))
    smtp_server.answer_next_data("451 4.7.1 Greylisted")
    with pytest.raises(TransientSendError, match="451"):
        sender.send(report(fine.address, 3))
    smtp_server.answer_next_data("554 5.7.1 Message refused")
    with pytest.raises(PermanentSendError, match="554"):
        sender.send(report(fine.address, 4))
    sender.send(report(fine.address, 5))  # the sender still works after errors
    assert [m["Subject"] for m in fine.read_new()] == ["Report 5"]
    with pytest.raises(PermanentSendError, match="550"):
        sender.send(report("nobody-here@example.org", 6))


def test_unreachable_server_is_transient():
    sender = SmtpSender("127.0.0.1", free_port(), "none", timeout=2)
    with pytest.raises(TransientSendError, match="could not reach"):
        sender.send(report("alice@example.org", 1))


def test_reconnects_when_the_server_dropped_the_connection(sender, make_player):
    alice = make_player("alice")
    sender.send(report(alice.address, 1))
    sender._client.sock.close()  # as after the server's idle timeout
    sender.send(report(alice.address, 2))
    assert [m["Subject"] for m in alice.read_new(at_least=2)] == ["Report 1", "Report 2"]


def test_a_message_for_several_recipients_is_refused(sender):
    message = report("a@example.org", 1)
    del message["To"]
    message["To"] = "a@example.org, b@example.org"
    with pytest.raises(PermanentSendError, match="exactly one recipient"):
        sender.send(message)


def test_the_server_can_accept_a_mail_only_after_ready_returns(sender, make_player, smtp_server):
    """docs/design.md, Outbox: the previous mail's mark is on disk before the next mail can
    be accepted; the sender waits for it (`ready`) before the end of the data."""
    alice = make_player("alice")
    sender.send(report(alice.address, 1))
    before = len(smtp_server.delivered)
    calls = []
    sender.send_when(
        report(alice.address, 2),
        ready=lambda: calls.append(("ready", len(smtp_server.delivered))),
        meanwhile=lambda: calls.append(("meanwhile", None)),
    )
    assert calls == [("ready", before), ("meanwhile", None)]
    assert len(smtp_server.delivered) == before + 1
    assert [m["Subject"] for m in alice.read_new(at_least=2)] == ["Report 1", "Report 2"]


def test_a_ready_that_fails_leaves_the_mail_unsent_and_its_error_as_it_was(
    sender, make_player, smtp_server
):
    alice = make_player("alice")
    sender.send(report(alice.address, 1))

    def disk_trouble():
        raise OSError("No space left on device")

    with pytest.raises(OSError, match="No space left"):
        sender.send_when(report(alice.address, 2), ready=disk_trouble, meanwhile=lambda: None)
    sender.send(report(alice.address, 3))  # over a new connection; the held mail never ended
    assert [m["Subject"] for m in alice.read_new(at_least=2)] == ["Report 1", "Report 3"]
    assert "Report 2" not in [m["Subject"] for m in alice.read_new(at_least=0)]


def test_a_prepared_mail_reaches_the_server_byte_for_byte_as_an_unprepared_one(
    sender, make_player, smtp_server
):
    """The outbox has the sender flatten the next mail while the server considers the one
    before (`prepare`); the server gets exactly what smtplib's own flattening gives, with
    the same envelope, attachments included."""
    alice = make_player("alice")
    with_map = dict(attachments=[("map.svg", "image/svg+xml", "<svg>" + "é" * 300 + "</svg>\n")])
    for number, options in ((1, {}), (2, with_map)):
        sender.send(report(alice.address, number, **options))
        plain = smtp_server.delivered[-1]
        prepared_message = report(alice.address, number, **options)
        sender.prepare(prepared_message)
        assert sender._prepared is not None and sender._prepared[2] is not None  # made ahead
        sender.send(prepared_message)
        ahead = smtp_server.delivered[-1]
        assert (ahead.envelope_from, ahead.recipients) == (plain.envelope_from, plain.recipients)
        boundary = lambda data: (
            data.replace(data.split(b'boundary="')[1].split(b'"')[0], b"B")
            if b'boundary="' in data
            else data
        )  # noqa: E731 - each flattening draws its own
        assert boundary(ahead.data) == boundary(plain.data)


def test_a_mail_prepared_for_another_message_is_not_sent_for_this_one(
    sender, make_player, smtp_server
):
    alice = make_player("alice")
    sender.prepare(report(alice.address, 1))
    sender.send(report(alice.address, 2))
    assert [m["Subject"] for m in alice.read_new(at_least=1)] == ["Report 2"]
