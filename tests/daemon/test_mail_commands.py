"""Player commands and reminders through the real mail servers (Dovecot over IMAP, aiosmtpd
delivering into Dovecot): players read over IMAP and write over SMTP; pbp runs its own
poll cycle (pbp.daemon.cycle) against the same servers."""

from __future__ import annotations

import pytest

from engine.infiltration.validity.words import GRAMMAR_HELP
from pbp.daemon.cycle import Cycle
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.composition import ComposedModerator
from pbp.game.record_parts import RosterPlayer
from pbp.settings import ImapSettings, Settings, SmtpSettings
from pbp.mail.transport import open_mailbox, open_sender
from tests.fixtures.text import flat
from tests.fixtures.clocks import Clock

pytestmark = pytest.mark.integration

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")
ZONES = ("Europe/Berlin", "America/New_York", "", "Australia/Sydney", "Europe/London")


class Table:
    """A running game of Infiltration with five real mailboxes and pbp's own."""

    def __init__(self, tmp_path, mail_server, smtp_server, make_player, options=None):
        address = mail_server.add_user(mail_server.new_address("moderator", "pbp.test"), "modpass")
        self.address = address
        self.settings = Settings(
            data=tmp_path / "data",
            transport="imap",
            from_address=address,
            poll_interval=1,
            imap=ImapSettings(
                host=mail_server.host,
                port=mail_server.imap_port,
                security="none",
                user=address,
                password="modpass",
            ),
            smtp=SmtpSettings(host=smtp_server.host, port=smtp_server.port, security="none"),
        )
        self.clock = Clock()
        self.moderator = ComposedModerator(self.settings, clock=self.clock)
        self.players = {name: make_player(name.lower()) for name in NAMES}
        roster = [
            RosterPlayer(name, self.players[name].address, zone) for name, zone in zip(NAMES, ZONES)
        ]
        self.game = create_game(
            self.moderator,
            "infiltration",
            roster,
            seed="42",
            options=options,
            schedule_text="class=1d",
            game_id="inf1",
        )
        self.cycle = Cycle(self.moderator, open_mailbox(self.settings), open_sender(self.settings))
        self.cycle.turn()
        self.welcome = {name: self.players[name].read_new()[0] for name in NAMES}

    def turn(self):
        return self.cycle.turn()

    def close(self):
        self.cycle.close()
        self.moderator.close()


@pytest.fixture
def table(tmp_path, mail_server, smtp_server, make_player):
    tables = []

    def make(**options):
        tables.append(
            Table(
                tmp_path / str(len(tables)), mail_server, smtp_server, make_player, options or None
            )
        )
        return tables[-1]

    yield make
    for made in tables:
        made.close()


def body(message) -> str:
    return message.get_body(("plain",)).get_content()


def prose(message) -> str:
    """The mail's text with its lines joined: a sentence may break anywhere."""
    return flat(body(message))


def test_welcome_explains_team_class_choice_schedule_and_zone(table):
    game = table()
    alice = prose(game.welcome["Alice"])
    view = load(game.moderator, "inf1").rules.view(load(game.moderator, "inf1").state, "Alice")[
        "me"
    ]
    if view["team"] == "red":
        assert "You are a RED" in alice and "You know your fellow Reds:" in alice
    else:
        assert "You are a GREEN" in alice and "choose your class with one CLASS order" in alice
    assert "How orders work" in alice
    assert "class choice (turn 0): 1d" in alice
    # Alice is in Berlin: 2030-01-02 12:00 UTC is 13:00 CET
    assert "The current deadline: Wed 2 Jan 2030, 13:00 CET (12:00 UTC)." in alice
    dmitri = prose(game.welcome["Dmitri"])
    assert "Deadline: Wed 2 Jan 2030, 23:00 AEDT (12:00 UTC)." in dmitri
    assert "Deadline: Wed 2 Jan 2030, 07:00 EST (12:00 UTC)." in prose(game.welcome["Bruno"])
    assert "Deadline: Wed 2 Jan 2030, 12:00 UTC." in prose(game.welcome["Chloe"])


def test_help_form_status_and_unknown_commands_by_mail(table):
    game = table()
    chloe = game.players["Chloe"]
    token = load(game.moderator, "inf1").token("Chloe")

    chloe.send(game.address, "help please", "HELP\n")
    game.turn()
    (reply,) = chloe.read_new()
    text = body(reply)
    assert reply["In-Reply-To"] and reply["Subject"] == "Re: [inf1] Help"
    assert "INFILTRATION: THE RULES IN SHORT" in text
    assert "Orders you can give now, in Turn 0 — class choice:" in text and "CLASS <class>" in text
    # the whole order table, this phase's orders marked, and the VALIDITY statement grammar
    table = text[
        text.index("Every order of Infiltration") : text.index("One order per line")
    ].splitlines()[1:]
    marked = [line.split() for line in table if line.startswith(">>")]
    assert [words[:3] for words in marked] == [[">>", "T0-class", "CLASS"]]
    for order in (
        "MOVE <room>",
        "STAY",
        "CODE <four digits>",
        "USE VALIDITY <statement>",
        "USE SEER <player>",
        "HACK",
        "RESTORE",
        "VOTE <player>|NO LYNCH|NO REDS LEFT",
        "ATTACK <name>, <name> ...",
    ):
        assert any(
            line.rstrip().endswith(f"  {order}") and line.startswith("  ") for line in table
        ), order
    assert "The statement of USE VALIDITY <statement>:\n" + GRAMMAR_HELP in text.replace(
        "\r\n", "\n"
    )

    chloe.send(game.address, "what", "DANCE\n")
    game.turn()
    text = prose(chloe.read_new()[0])
    assert "I did not understand 'DANCE'" in text and "THE RULES IN SHORT" in text

    chloe.send(game.address, "form", "FORM\n")
    game.turn()
    text = body(chloe.read_new()[0])
    assert f"TOKEN: {token}" in text and "BEGIN ORDERS inf1 T0-class" in text

    chloe.send(game.address, "status", "STATUS\n")
    game.turn()
    text = prose(chloe.read_new()[0])
    assert "You have no accepted orders for Turn 0 — class choice yet." in text
    assert "its deadline is Wed 2 Jan 2030, 12:00 UTC" in text

    chloe.reply(game.welcome["Chloe"], _filled(game.welcome["Chloe"]))
    game.turn()
    assert "Accepted for Turn 0 — class choice" in prose(chloe.read_new()[0])
    chloe.send(game.address, "status", "STATUS\n")
    game.turn()
    text = prose(chloe.read_new()[0])
    assert "Your accepted orders (received" in text and "CLASS" in text


def _filled(welcome) -> str:
    """The welcome's form with its first offered CLASS filled in."""
    text = body(welcome)
    block = text[text.index("BEGIN ORDERS") : text.index("END ORDERS") + len("END ORDERS")]
    choice = next(
        line.split(":", 1)[1].split(",")[0].strip()
        for line in block.splitlines()
        if "choices:" in line
    )
    return block.replace("END ORDERS", f"CLASS {choice}\nEND ORDERS")


def test_reminders_go_only_to_players_without_orders_and_only_once(table):
    game = table(reminders="12h,1h")
    alice, bruno = game.players["Alice"], game.players["Bruno"]
    alice.reply(game.welcome["Alice"], _filled(game.welcome["Alice"]))
    game.turn()
    alice.read_new()  # the receipt
    game.clock.advance(hours=11)  # 13 hours before the deadline: nothing yet
    game.turn()
    game.clock.advance(hours=2)  # 11 hours before: the 12h reminder
    game.turn()
    reminded = {name for name in NAMES if name != "Alice"}
    for name in reminded:
        (mail,) = game.players[name].read_new()
        assert (
            mail["Subject"]
            == "[inf1] Reminder: 11 hours left for your orders, Turn 0, class choice"
        )
        assert "BEGIN ORDERS inf1 T0-class" in body(mail)
    assert alice.read_new(at_least=0, timeout=0.5) == []
    game.turn()  # a second cycle at the same time sends nothing again
    assert bruno.read_new(at_least=0, timeout=0.5) == []
    # Bruno sends orders; at the 1h mark only the three still missing are reminded
    bruno.reply(game.welcome["Bruno"], _filled(game.welcome["Bruno"]))
    game.turn()
    bruno.read_new()  # the receipt
    game.clock.advance(hours=10, minutes=30)
    game.turn()
    for name in ("Chloe", "Dmitri", "Elena"):
        (mail,) = game.players[name].read_new()
        assert "30 minutes left" in mail["Subject"]
        if name == "Dmitri":  # Sydney, in daylight saving time in January
            assert "The deadline is Wed 2 Jan 2030, 23:00 AEDT (12:00 UTC)" in prose(mail)
    assert bruno.read_new(at_least=0, timeout=0.5) == []


def test_no_reminders_when_switched_off(table):
    game = table(reminders="off")
    game.clock.advance(hours=23, minutes=30)
    game.turn()
    assert all(game.players[name].read_new(at_least=0, timeout=0.3) == [] for name in NAMES)
