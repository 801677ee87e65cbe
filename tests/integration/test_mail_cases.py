"""The mail cases end to end: real Dovecot (IMAP over TLS) and aiosmtpd, the real
desk, `pbp new-game` and `pbp poll` (docs/design.md: Order mail format; Reliability rules —
Identity, Loops, Bad input). Each case checks the answer (or the silence) in the player's
real mailbox and that the game's stored orders change only where they should."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from tests.fixtures.harness import Sections, imap_over_tls, plain_smtp, write_settings
from tests.fixtures.mailserver import Player
from tests.fixtures.text import flat
from pbp.cli import main as pbp
from pbp.game.stored import load
from pbp.host.removal import modkill
from pbp.composition import ComposedModerator
from pbp.settings import load_settings
from pbp.render.renderer import subject_words

pytestmark = pytest.mark.integration
NAMES = ["Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid"]
MAX_SIZE = 200_000


class Table:
    """One Infiltration game played over the test mail servers."""

    def __init__(
        self,
        root: Path,
        dovecot,
        smtp_server,
        max_size: int = MAX_SIZE,
        more: Sections | None = None,
    ) -> None:
        self.dovecot, self.smtp = dovecot, smtp_server
        self.moderator_address = dovecot.add_user(dovecot.new_address("pbp", "pbp.test"), "modpass")
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
                    "max_mail_size": max_size,
                },
                "imap": imap_over_tls(dovecot, self.moderator_address, password="modpass"),
                "smtp": plain_smtp(smtp_server),
                **(more or {}),
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
                "mailcases",
                "--schedule",
                "default=48h",
            )
            == 0
        )
        self.welcome = {name: player.read_new()[0] for name, player in self.players.items()}

    def cli(self, *arguments: str) -> int:
        return pbp([arguments[0], "--settings", str(self.settings), *arguments[1:]])

    def moderator(self) -> ComposedModerator:
        return ComposedModerator(load_settings(str(self.settings)))

    def game(self):
        with self.moderator() as moderator:
            game = load(moderator, "mailcases")
            orders = [dict(row) for row in game.file.orders.all()]
            return game.file.record(), game.phase, orders, game.state

    def token(self, name: str) -> str:
        return self.game()[0]["tokens"][name]

    def valid_orders(self, name: str) -> str:
        record, phase, _orders, state = self.game()
        with self.moderator() as moderator:
            return moderator.rules("infiltration").scripted_orders(state, name, 1)

    def block(
        self,
        name: str,
        orders: str | None = None,
        token: str | None = None,
        phase: str | None = None,
    ) -> str:
        record, current, _orders, _state = self.game()
        orders = self.valid_orders(name) if orders is None else orders
        return (
            f"BEGIN ORDERS mailcases {phase or current.id}\nTOKEN: {token or self.token(name)}\n"
            f"{orders}\nEND ORDERS\n"
        )

    def poll(self) -> None:
        assert self.cli("poll") == 0

    def mailbox_count(self, folder: str) -> int:
        return self.dovecot.count(self.moderator_address, folder)


@pytest.fixture(scope="module")
def table(tmp_path_factory, dovecot, smtp_server):
    return Table(tmp_path_factory.mktemp("mail-cases"), dovecot, smtp_server)


def new_mail(player_name: str, table: Table) -> list:
    return table.players[player_name].read_new(at_least=0)


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content()


def prose_of(message) -> str:
    """A mail's text with its lines joined (pbp wraps its prose at 72 columns)."""
    return flat(text_of(message))


def raw_mail(
    sender_header: str,
    to: str,
    body: str | bytes,
    headers: str = "",
    subject: str = "orders",
    message_id: str = "<raw@example.org>",
) -> bytes:
    head = (
        f"From: {sender_header}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n"
        f"{headers.replace(chr(10), chr(13) + chr(10))}\r\n"
    ).encode("utf-8")
    data = body if isinstance(body, bytes) else body.replace("\n", "\r\n").encode("utf-8")
    return head + data


@pytest.fixture(scope="module")
def stranger(table):
    return Player(
        table.dovecot.add_user(table.dovecot.new_address("stranger")), table.dovecot, table.smtp
    )


def play(table: Table, send) -> tuple[list[dict], dict[str, list]]:
    """Send one mail, run `pbp poll`, and return the new order rows and every player's
    new mail. The poll is synchronous (aiosmtpd delivers before it answers), so what is
    not in a mailbox afterwards was not sent."""
    before = table.game()[2]
    send()
    table.poll()
    after = table.game()[2]
    assert table.mailbox_count("INBOX") == 0  # every mail is filed after its commit
    return [row for row in after if row not in before], {
        name: new_mail(name, table) for name in NAMES
    }


def only_reply(replies: dict[str, list], name: str):
    assert [n for n, mails in replies.items() if mails] == [name]
    (reply,) = replies[name]
    return reply


def silence(replies: dict[str, list]) -> bool:
    return not any(replies.values())


def test_wrong_token_is_rejected_with_the_reason(table):
    orders, replies = play(
        table,
        lambda: table.players["Alice"].send(
            table.moderator_address, "orders", table.block("Alice", token="WRONG12345")
        ),
    )
    assert orders == []
    assert "TOKEN is not your token" in prose_of(only_reply(replies, "Alice"))


def test_address_not_on_the_roster_gets_no_reply(table, stranger):
    orders, replies = play(
        table, lambda: stranger.send(table.moderator_address, "orders", table.block("Alice"))
    )
    assert orders == [] and silence(replies) and stranger.read_new(at_least=0) == []


def test_two_from_addresses_get_no_reply_and_change_nothing(table):
    alice, bruno = table.players["Alice"].address, table.players["Bruno"].address
    data = raw_mail(
        f"{alice}, {bruno}", table.moderator_address, table.block("Alice"), message_id="<two@x>"
    )
    orders, replies = play(table, lambda: table.dovecot.deliver_raw(table.moderator_address, data))
    assert orders == [] and silence(replies)


def test_display_name_spoofing_is_the_real_address(table, stranger):
    alice = table.players["Alice"].address
    data = raw_mail(
        f'"{alice}" <{stranger.address}>',
        table.moderator_address,
        table.block("Alice"),
        message_id="<spoof@x>",
    )
    orders, replies = play(table, lambda: table.dovecot.deliver_raw(table.moderator_address, data))
    assert orders == [] and silence(replies) and stranger.read_new(at_least=0) == []


def test_reply_to_elsewhere_never_decides_identity_nor_the_answers_address(table, stranger):
    orders, replies = play(
        table,
        lambda: table.players["Alice"].send(
            table.moderator_address, "orders", table.block("Alice"), {"Reply-To": stranger.address}
        ),
    )
    assert [row["player"] for row in orders] == ["Alice"]
    assert "Accepted for" in text_of(only_reply(replies, "Alice"))
    assert stranger.read_new(at_least=0) == []


def test_an_error_on_line_3_is_reported_with_its_line(table):
    orders, replies = play(
        table,
        lambda: table.players["Bruno"].send(
            table.moderator_address, "orders", table.block("Bruno", orders="ATACK guard")
        ),
    )
    assert orders == []
    assert 'Line 3: "ATACK guard"' in text_of(only_reply(replies, "Bruno"))


def test_text_outside_the_block_is_ignored(table):
    body = (
        "Hi moderator,\nhere are my orders.\n\n" + table.block("Bruno") + "\nCheers,\n-- \nBruno\n"
    )
    orders, replies = play(
        table, lambda: table.players["Bruno"].send(table.moderator_address, "orders", body)
    )
    assert [(row["player"], row["text"]) for row in orders] == [
        ("Bruno", table.valid_orders("Bruno"))
    ]
    assert "Accepted for" in text_of(only_reply(replies, "Bruno"))


def test_a_reply_quoting_the_form_with_orders_filled_in_is_accepted(table):
    form = text_of(table.welcome["Chloe"]).replace(
        "END ORDERS", table.valid_orders("Chloe") + "\nEND ORDERS"
    )
    orders, replies = play(
        table,
        lambda: table.players["Chloe"].reply(
            table.welcome["Chloe"], "Here you go.", quoted_text=form
        ),
    )
    assert [row["player"] for row in orders] == ["Chloe"]
    reply = only_reply(replies, "Chloe")
    assert "Accepted for" in text_of(reply) and reply["In-Reply-To"]


def test_a_reply_quoting_the_form_with_nothing_filled_in_changes_nothing(table):
    orders, replies = play(
        table,
        lambda: table.players["Dmitri"].reply(table.welcome["Dmitri"], "When is the deadline?"),
    )
    assert orders == []
    assert "no order filled in" in prose_of(only_reply(replies, "Dmitri"))


@pytest.mark.parametrize("header", ["Auto-Submitted: auto-replied", "Precedence: bulk"])
def test_automatic_mail_gets_no_reply_and_changes_nothing(table, header):
    name, value = header.split(": ")
    orders, replies = play(
        table,
        lambda: table.players["Dmitri"].send(
            table.moderator_address, "orders", table.block("Dmitri"), {name: value}
        ),
    )
    assert orders == [] and silence(replies)


def test_a_bounce_gets_no_reply_and_changes_nothing(table):
    elena = table.players["Elena"].address
    body = (
        "--b1\nContent-Type: text/plain\n\nYour message could not be delivered.\n\n"
        "--b1\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.org\n\n"
        f"Final-Recipient: rfc822; {elena}\nAction: failed\nStatus: 5.1.1\n\n"
        "--b1\nContent-Type: message/rfc822\n\nSubject: report\n\n"
        + table.block("Elena")
        + "--b1--\n"
    )
    data = raw_mail(
        f"Mail Delivery System <MAILER-DAEMON@{elena.split('@')[1]}>",
        table.moderator_address,
        body,
        headers="Return-Path: <>\nMIME-Version: 1.0\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"\n',
        message_id="<bounce@x>",
    )
    orders, replies = play(table, lambda: table.dovecot.deliver_raw(table.moderator_address, data))
    assert orders == [] and silence(replies)


def test_html_only_mail_is_read(table):
    elena = table.players["Elena"].address
    html = (
        "<html><body><div>Hello,</div><p>"
        + table.block("Elena").replace("\n", "<br>")
        + "</p></body></html>"
    )
    data = raw_mail(
        elena,
        table.moderator_address,
        html,
        headers="MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n",
        message_id="<html@x>",
    )
    orders, replies = play(table, lambda: table.dovecot.deliver_raw(table.moderator_address, data))
    assert [(row["player"], row["text"]) for row in orders] == [
        ("Elena", table.valid_orders("Elena"))
    ]
    assert "Accepted for" in text_of(only_reply(replies, "Elena"))


def test_a_latin1_mail_is_read(table):
    farid = table.players["Farid"].address
    body = "Voilà mes ordres, déjà prêts.\n" + table.block("Farid").replace(
        "END ORDERS", "# très bien\nEND ORDERS"
    )
    data = raw_mail(
        farid,
        table.moderator_address,
        body.replace("\n", "\r\n").encode("latin-1"),
        headers="MIME-Version: 1.0\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: 8bit\n",
        message_id="<latin1@x>",
    )
    orders, replies = play(table, lambda: table.dovecot.deliver_raw(table.moderator_address, data))
    assert [row["player"] for row in orders] == ["Farid"]
    assert "Accepted for" in text_of(only_reply(replies, "Farid"))


def test_orders_in_a_text_attachment(table):
    farid = table.players["Farid"].address
    body = (
        "--m\nContent-Type: text/plain\n\nMy orders are attached.\n"
        '--m\nContent-Type: text/plain; name="orders.txt"\nContent-Disposition: attachment; filename="orders.txt"\n'
        "Content-Transfer-Encoding: base64\n\n"
        + base64.b64encode(table.block("Farid").encode()).decode()
        + "\n--m--\n"
    )
    data = raw_mail(
        farid,
        table.moderator_address,
        body,
        message_id="<attached@x>",
        headers='MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="m"\n',
    )
    orders, replies = play(table, lambda: table.dovecot.deliver_raw(table.moderator_address, data))
    assert [row["player"] for row in orders] == ["Farid"]
    assert "Accepted for" in text_of(only_reply(replies, "Farid"))


def test_an_oversized_mail_is_refused_without_download(table):
    rejected_before = table.mailbox_count("rejected") + table.mailbox_count("quarantine")
    orders, replies = play(
        table,
        lambda: table.players["Alice"].send(
            table.moderator_address, "orders", table.block("Alice") + "x" * MAX_SIZE
        ),
    )
    assert orders == [] and silence(replies)
    assert (
        table.mailbox_count("rejected") + table.mailbox_count("quarantine") == rejected_before + 1
    )


def test_the_same_mail_delivered_twice_is_processed_once(table):
    dmitri = table.players["Dmitri"].address
    data = raw_mail(dmitri, table.moderator_address, table.block("Dmitri"), message_id="<twice@x>")

    def deliver_twice():
        table.dovecot.deliver_raw(table.moderator_address, data)
        table.dovecot.deliver_raw(table.moderator_address, data)

    orders, replies = play(table, deliver_twice)
    assert [row["player"] for row in orders] == ["Dmitri"]
    assert "Accepted for" in text_of(only_reply(replies, "Dmitri"))


def test_orders_for_a_closed_phase_are_rejected(table):
    closed = table.game()[1].id
    assert table.cli("advance", "mailcases") == 0
    for name in NAMES:  # wait for each player's report, so none can arrive during a later step
        (report,) = table.players[name].read_new(at_least=1)
        assert f"{subject_words('infiltration', closed)} is over" in report["Subject"]
    assert table.game()[1].id != closed
    orders, replies = play(
        table,
        lambda: table.players["Alice"].send(
            table.moderator_address,
            "orders",
            table.block("Alice", orders="CLASS WARRIOR", phase=closed),
        ),
    )
    assert orders == []
    assert closed in text_of(only_reply(replies, "Alice"))


def test_orders_from_a_dead_player_are_rejected(table):
    with table.moderator() as moderator:
        modkill(moderator, "mailcases", "Bruno", "left the game")
    assert table.cli("poll") == 0  # sends the announcements
    for name in NAMES:  # wait for each player's mail, so none can arrive during `play`
        (notice,) = table.players[name].read_new(at_least=1)
        # Bruno is told as the rules tell a death; the others get the host's notice
        told = "You died." if name == "Bruno" else "The host has removed Bruno from the game."
        assert told in text_of(notice)
    orders, replies = play(
        table,
        lambda: table.players["Bruno"].send(
            table.moderator_address, "orders", table.block("Bruno", orders="MOVE G-5")
        ),
    )
    assert orders == []
    text = prose_of(only_reply(replies, "Bruno"))
    assert (
        "was not accepted: you are dead: your character Bruno has died, and the dead give no orders"
        in text
    )
