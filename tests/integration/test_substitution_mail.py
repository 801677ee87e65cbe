"""A substitution as the players read it, from Dovecot (docs/design.md: Command line,
`pbp substitute`): the newcomer is greeted by name with a digest of the character (what it
was told privately, its orders already in), the leaving player gets a goodbye, and the
game record lists the substitution for the end-of-game credits."""

from __future__ import annotations

import pytest

from pbp.game.record import GameRecord
from tests.fixtures.mailserver import Player
from tests.integration.test_mail_cases import Table, play, text_of

pytestmark = pytest.mark.integration


@pytest.fixture
def table(tmp_path, dovecot, smtp_server):
    return Table(tmp_path, dovecot, smtp_server)


def test_the_newcomer_gets_a_digest_and_the_leaving_player_a_goodbye(table, dovecot, smtp_server):
    assert table.cli("advance", "mailcases") == 0  # T0-class: Chloe is told her class
    for player in table.players.values():
        player.read_new(at_least=1)
    orders, _ = play(
        table,
        lambda: table.players["Chloe"].send(
            table.moderator_address, "orders", table.block("Chloe", orders="STAY")
        ),
    )
    assert [row["player"] for row in orders] == ["Chloe"]
    karim = Player(dovecot.add_user(dovecot.new_address("karim")), dovecot, smtp_server)

    assert (
        table.cli(
            "substitute", "mailcases", "chloe", "Karim", karim.address, "--timezone", "Europe/Paris"
        )
        == 0
    )

    (welcome,) = karim.read_new()
    assert welcome["Subject"] == "[mailcases] Welcome, Karim: you now play Chloe"
    text = text_of(welcome).replace("\r\n", "\n")
    assert text.startswith("Hello Karim, you now play Chloe.\n")
    assert "What Chloe was told privately so far:\nTurn 0 — class choice:\n- " in text
    assert (
        "Chloe's orders already in for Turn 1 — movement\n(they stand unless you send new ones):\n  STAY\n"
        in text
    )
    assert "----- " not in text and text.count("BEGIN ORDERS") == 1  # no old mail pasted in full
    (goodbye,) = table.players["Chloe"].read_new()
    assert goodbye["Subject"] == "[mailcases] Goodbye from game mailcases"
    assert "from now on Karim plays\nChloe. Your token no longer works" in text_of(goodbye).replace(
        "\r\n", "\n"
    )
    record = GameRecord.from_json(table.game()[0])
    assert [(s.character, s.left, s.joined, s.phase) for s in record.substitutions] == [
        ("Chloe", "Chloe", "Karim", "T1-movement")
    ]


def test_later_mail_greets_the_newcomer_by_their_own_name(table, dovecot, smtp_server):
    """After a substitution every mail to the character goes to the newcomer and greets
    them by their own name, saying which character they play."""
    assert table.cli("advance", "mailcases") == 0
    for player in table.players.values():
        player.read_new(at_least=1)
    karim = Player(dovecot.add_user(dovecot.new_address("karim")), dovecot, smtp_server)
    assert table.cli("substitute", "mailcases", "chloe", "Karim", karim.address) == 0
    karim.read_new()  # the welcome
    assert table.cli("advance", "mailcases") == 0
    (report,) = karim.read_new()
    text = text_of(report).replace("\r\n", "\n")
    assert "Hello Karim, you play Chloe,\n" in text and "Hello Chloe" not in text
    bruno_text = "".join(text_of(mail) for mail in table.players["Bruno"].read_new(at_least=1))
    assert "Hello Bruno,\n" in bruno_text.replace("\r\n", "\n")
