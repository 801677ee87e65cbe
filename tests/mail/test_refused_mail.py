"""Mail the ingest refuses (docs/design.md: Reliability rules — Ingest: "A message that crashes
processing three times goes to quarantine and the host is told"; Bad input: "huge messages
(size checked before download)"). The host is told first, the mail is moved after: a
failure (or a crash) between the two leaves the move to the next poll, and the host is
told once."""

from __future__ import annotations

from email.message import EmailMessage

from pbp.daemon.cycle import Cycle
from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.mail.maildir import MaildirMailbox, MaildirSender, deliver
from pbp.host.status import status_text
from tests.fixtures.harness import ROSTER


class MovesFailOnce(MaildirMailbox):
    """The embedded Maildir, whose first move fails as a server gone away would."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.failures = 1

    def settle(self, key, outcome):
        if self.failures:
            self.failures -= 1
            raise ConnectionResetError("the server went away")
        super().settle(key, outcome)


def send(inbox, subject: str, body: str) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = (
        "Alice <alice@example.org>",
        "pbp@games.example",
        subject,
    )
    message.set_content(body)
    deliver(inbox, message.as_bytes())


def refused_rows(moderator):
    return [row for row in moderator.folder.mails.all() if row["outcome"] == "quarantine"]


def cycle_for(moderator, mailbox):
    return Cycle(moderator, mailbox, MaildirSender(moderator.folder.path / "sent"))


def test_oversized_mail_is_recorded_before_it_is_moved(moderator, tmp_path):
    create_game(moderator, "ballot", ROSTER, seed="s")
    inbox = tmp_path / "inbox"
    mailbox = MovesFailOnce(inbox, max_bytes=2000)
    send(inbox, "orders", "x" * 5000)
    cycle = cycle_for(moderator, mailbox)
    first = cycle.poll()
    assert first.failed and mailbox.count("inbox") == 1  # not moved…
    assert len(refused_rows(moderator)) == 1  # …but the host is told already
    assert "alice@example.org" in status_text(
        moderator.folder
    ) and "over the size limit" in status_text(moderator.folder)
    cycle.poll()
    assert mailbox.count("inbox") == 0 and mailbox.count("rejected") == 1
    assert len(refused_rows(moderator)) == 1


def test_a_mail_failing_three_times_is_recorded_before_it_is_quarantined(
    moderator, tmp_path, monkeypatch
):
    create_game(moderator, "ballot", ROSTER, seed="s")
    receive = Desk.receive

    def choking(desk, mail):
        if "poison" in mail.subject:
            raise RuntimeError("the desk choked on this mail")
        return receive(desk, mail)

    monkeypatch.setattr(Desk, "receive", choking)
    inbox = tmp_path / "inbox"
    mailbox = MovesFailOnce(inbox)
    mailbox.failures = 0
    send(inbox, "poison", "HELP")
    cycle = cycle_for(moderator, mailbox)
    cycle.poll()
    cycle.poll()
    assert refused_rows(moderator) == [] and mailbox.count("inbox") == 1
    mailbox.failures = 1
    third = cycle.poll()  # the third strike: recorded, then the move fails
    assert third.quarantined == [] and mailbox.count("inbox") == 1
    (row,) = refused_rows(moderator)
    assert row["sender"] == "alice@example.org" and "failed 3 times" in row["reason"]
    again = cycle.poll()  # only the move is left to do
    assert [outcome for _key, outcome in again.resettled] == ["quarantine"]
    assert mailbox.count("inbox") == 0 and mailbox.count("quarantine") == 1
    assert len(refused_rows(moderator)) == 1
