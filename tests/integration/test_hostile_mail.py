"""Hostile mail end to end (docs/design.md: Hostile input; Reliability rules — Loops, Outbox):
real Dovecot and aiosmtpd, `pbp poll`, `pbp status` and `pbp advance` through the CLI.
Each case checks what really arrived in the real mailboxes."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from tests.fixtures.harness import imap_over_tls, plain_smtp, write_settings
from tests.fixtures.mailserver import Player
from pbp.cli import main as pbp
from pbp.composition import ComposedModerator
from pbp.settings import load_settings

pytestmark = pytest.mark.integration
NAMES = ["Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid"]
REPLY_CAP = 3
INJECTING_ID = (
    "<=?utf-8?q?x=0D=0AReply-To:_moderator=40evil.example=0D=0A=0D=0AInjected?=@evil.example>"
)


class HostileTable:
    """One Infiltration game with a host address; the reply cap is small."""

    def __init__(self, root: Path, dovecot, smtp_server) -> None:
        self.dovecot = dovecot
        self.moderator_address = dovecot.add_user(dovecot.new_address("pbp", "pbp.test"), "modpass")
        self.host = Player(dovecot.add_user(dovecot.new_address("host")), dovecot, smtp_server)
        self.players = {
            name: Player(dovecot.add_user(dovecot.new_address(name.lower())), dovecot, smtp_server)
            for name in NAMES
        }
        self.settings = write_settings(
            root / "pbp.ini",
            {
                "pbp": {
                    "data": root / "data",
                    "transport": "imap",
                    "from_address": self.moderator_address,
                    "replies_per_sender_per_day": REPLY_CAP,
                },
                "imap": imap_over_tls(dovecot, self.moderator_address, password="modpass"),
                "smtp": plain_smtp(smtp_server),
                "forum": {"host_address": self.host.address, "posts": root / "posts"},
            },
        )
        roster = root / "roster.csv"
        roster.write_text(
            "name,email\n" + "".join(f"{n},{p.address}\n" for n, p in self.players.items())
        )
        assert (
            self.cli(
                "new-game",
                "--ruleset",
                "infiltration",
                "--roster",
                str(roster),
                "--seed",
                "7",
                "--id",
                "hostile",
                "--schedule",
                "default=48h",
            )
            == 0
        )
        self.welcome = {name: player.read_new()[0] for name, player in self.players.items()}

    def cli(self, *arguments: str) -> int:
        return pbp([arguments[0], "--settings", str(self.settings), *arguments[1:]])

    def output(self, *arguments: str) -> str:
        out = io.StringIO()
        with redirect_stdout(out):
            assert self.cli(*arguments) == 0
        return out.getvalue()

    def moderator(self) -> ComposedModerator:
        return ComposedModerator(load_settings(str(self.settings)))

    def block(self, name: str) -> str:
        with self.moderator() as moderator:
            from pbp.game.stored import load

            game = load(moderator, "hostile")
            orders = moderator.rules("infiltration").scripted_orders(game.state, name, 1)
            return (
                f"BEGIN ORDERS hostile {game.phase.id}\nTOKEN: {game.record.tokens[name]}\n"
                f"{orders}\nEND ORDERS\n"
            )

    def raw(
        self, sender: str, subject: str, body: str, message_id: str, headers: str = ""
    ) -> bytes:
        return (
            f"From: {sender}\r\nTo: {self.moderator_address}\r\nSubject: {subject}\r\n"
            f"Message-ID: {message_id}\r\n{headers}\r\n{body.replace(chr(10), chr(13) + chr(10))}"
        ).encode()

    def poll(self) -> None:
        assert self.cli("poll") == 0
        assert self.dovecot.count(self.moderator_address, "INBOX") == 0


@pytest.fixture(scope="module")
def table(tmp_path_factory, dovecot, smtp_server):
    return HostileTable(tmp_path_factory.mktemp("hostile"), dovecot, smtp_server)


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content()


def test_a_form_feed_subject_from_the_host_is_answered_and_other_mail_goes_on(table):
    """Finding: a Subject decoding to a form feed made the reply raise and stopped all mail."""
    table.dovecot.deliver_raw(
        table.moderator_address,
        table.raw(
            table.host.address,
            "=?utf-8?q?hello=0Cthere=E2=80=A8Reply-To:_x=40evil.example?=",
            "Hello pbp.\n",
            "<ff@host.example>",
        ),
    )
    table.players["Alice"].send(table.moderator_address, "orders", table.block("Alice"))
    table.poll()
    # (the host's other mail is the draft of the opening post, made with the game)
    (answer,) = [m for m in table.host.read_new() if "Draft of the public post" not in m["Subject"]]
    assert (
        answer["Subject"] == "Re: hello there Reply-To: x@evil.example"
        and answer["Reply-To"] is None
    )
    (receipt,) = table.players["Alice"].read_new()
    assert "Accepted for" in text_of(receipt)


def test_an_injecting_message_id_threads_nothing_and_injects_nothing(table):
    """Finding: an encoded word in Message-ID became a raw CR LF in the reply's threading headers."""
    table.dovecot.deliver_raw(
        table.moderator_address,
        table.raw(table.players["Bruno"].address, "orders", table.block("Bruno"), INJECTING_ID),
    )
    table.poll()
    (receipt,) = table.players["Bruno"].read_new()
    assert (
        receipt["Reply-To"] is None
        and receipt["In-Reply-To"] is None
        and receipt["References"] is None
    )
    assert "evil.example" not in receipt.as_string() and "Injected" not in receipt.as_string()
    assert text_of(receipt).replace("\r\n", "\n").startswith("Hello Bruno,\n\nAccepted for")


def test_a_row_that_cannot_be_sent_is_failed_shown_and_the_rest_goes_on(table):
    """Design.md: one bad outgoing row is marked failed, shown in `pbp status`; the rest go on."""
    with table.moderator() as moderator:
        file = moderator.folder.game("hostile")
        with file.transaction():
            row = next(r for r in file.outbox.all() if r["recipient"] == "Chloe")
            poisoned = {
                **row,
                "status": "queued",
                "sent": "",
                "address": "chloe\x0c@example.org",
                "message_id": "<poisoned@pbp.test>",
                "sequence": 999,
            }
            file.outbox.insert(poisoned)
    table.players["Dmitri"].send(table.moderator_address, "orders", table.block("Dmitri"))
    table.poll()
    assert "Accepted for" in text_of(table.players["Dmitri"].read_new()[0])
    status = table.output("status")
    assert "FAILED welcome to Chloe" in status and "could not be built" in status
    phase_before = table.block("Elena").split()[3]
    assert table.cli("advance", "hostile") == 0
    reports = {name: player.read_new() for name, player in table.players.items()}
    assert all(reports.values())
    assert table.block("Elena").split()[3] != phase_before


def test_a_host_autoresponder_loop_stops_at_the_daily_cap(table):
    """Finding: a host autoresponder looped with pbp for 80 rounds; every address has the cap."""
    table.host.read_new(at_least=0, timeout=0)  # the draft of the phase advanced above is no answer
    table.host.send(table.moderator_address, "question", "How does this work?")
    answers = 0
    for _round in range(REPLY_CAP + 3):
        table.poll()
        new = table.host.read_new(at_least=0, timeout=0)
        if not new:
            break
        answers += len(new)
        for message in new:  # the autoresponder marks nothing: a plain reply to each mail
            table.host.reply(message, "I am away until Monday.", quote=False)
    assert answers == REPLY_CAP - 1  # the cap counts the answer to the form-feed subject above
    table.poll()
    assert table.host.read_new(at_least=0, timeout=0) == []


@pytest.mark.parametrize(
    "headers",
    [
        "Auto-Submitted: auto-replied\r\n",
        "Precedence: junk\r\n",
        "X-Autoreply: yes\r\n",
        "List-Id: <l.example>\r\n",
    ],
)
def test_marked_automatic_mail_from_the_host_is_never_answered(table, headers):
    table.dovecot.deliver_raw(
        table.moderator_address,
        table.raw(
            table.host.address,
            "Out of office",
            "Away.\n",
            f"<away.{len(headers)}@host.example>",
            headers,
        ),
    )
    table.poll()
    assert table.host.read_new(at_least=0, timeout=0) == []
