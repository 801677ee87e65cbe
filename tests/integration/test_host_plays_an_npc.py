"""The host plays an NPC over the real mail loop (docs/design.md: The host's view;
docs/rules/infiltration.md: NPCs): real Dovecot (IMAP over TLS) and aiosmtpd, `pbp new-game`,
`pbp advance` and `pbp poll`. The NPC's welcome, reports and forms reach the host's own
mailbox; the host answers the form by mail with the host token and gets a receipt; a
wrong host token changes nothing; `pbp submit … STATUS` and `pbp show <game> <npc>` tell
the host where the NPC stands and what it saw."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbp.cli import main as pbp
from pbp.game.stored import load
from pbp.composition import ComposedModerator
from pbp.demo.players import filled_reply_text
from pbp.settings import load_settings
from tests.fixtures.harness import imap_over_tls, plain_smtp, write_settings
from tests.fixtures.mailserver import Player
from tests.fixtures.text import flat

pytestmark = pytest.mark.integration
NAMES = ["Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid"]
GAME = "npcs"


class HostTable:
    def __init__(self, root: Path, dovecot, smtp_server) -> None:
        self.dovecot = dovecot
        moderator = dovecot.add_user(dovecot.new_address("pbp", "pbp.test"), "modpass")
        self.host = Player(dovecot.add_user(dovecot.new_address("host")), dovecot, smtp_server)
        players = {name: dovecot.add_user(dovecot.new_address(name.lower())) for name in NAMES}
        self.settings = write_settings(
            root / "pbp.ini",
            {
                "pbp": {"data": root / "data", "transport": "imap", "from_address": moderator},
                "imap": imap_over_tls(dovecot, moderator, password="modpass"),
                "smtp": plain_smtp(smtp_server),
                "forum": {"host_address": self.host.address, "posts": root / "posts"},
            },
        )
        roster = root / "roster.csv"
        roster.write_text("name,email\n" + "".join(f"{n},{a}\n" for n, a in players.items()))
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
                GAME,
                "--npc",
                "Raiden:renegade:neutral",
                "--schedule",
                "default=48h",
            )
            == 0
        )

    def cli(self, *arguments: str) -> int:
        return pbp([arguments[0], "--settings", str(self.settings), *arguments[1:]])

    def game(self):
        with ComposedModerator(load_settings(str(self.settings))) as moderator:
            game = load(moderator, GAME)
            return game.record, game.phase, [dict(row) for row in game.file.orders.all()]

    def npc_mails(self) -> list:
        return [m for m in self.host.read_new(at_least=0) if "(NPC Raiden)" in str(m["Subject"])]


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content().replace("\r\n", "\n")


def test_the_host_plays_an_npc_by_mail_and_sees_it_in_pbp_show(
    tmp_path, dovecot, smtp_server, capsys
):
    table = HostTable(tmp_path, dovecot, smtp_server)
    (welcome,) = table.npc_mails()
    assert str(welcome["Subject"]) == f"[{GAME}] Welcome to Infiltration, Raiden (NPC Raiden)"
    assert "Renegade" in text_of(welcome) and "Neutral" in text_of(welcome)

    assert table.cli("advance", GAME) == 0  # T0-class: the NPC starts somewhere
    (report,) = table.npc_mails()
    text = text_of(report)
    assert "You are an NPC, on the Neutral team, class Renegade." in text
    assert f"BEGIN ORDERS {GAME} T1-movement\nTOKEN: " in text and "\nNPC: Raiden\n" in text

    # A wrong host token: refused with the reason, nothing stored.
    wrong = filled_reply_text(text, "MOVE A-1", quote=False)
    token_line = next(line for line in wrong.splitlines() if line.startswith("TOKEN:"))
    table.host.reply(report, wrong.replace(token_line, "TOKEN: 000000000000"), quote=False)
    assert table.cli("poll") == 0
    (refusal,) = table.host.read_new()
    assert "the TOKEN is not this game's host token" in flat(text_of(refusal))
    assert not [row for row in table.game()[2] if row["player"] == "Raiden"]

    # The form as the host fills it in, replied to like a player: accepted, with a receipt.
    table.host.reply(report, filled_reply_text(text, "MOVE A-1", quote=True), quote=False)
    assert table.cli("poll") == 0
    (receipt,) = table.host.read_new()
    assert text_of(receipt).startswith("Accepted for Raiden in T1-movement:\n  MOVE A-1\n")
    (row,) = [row for row in table.game()[2] if row["player"] == "Raiden"]
    assert (row["phase"], row["text"]) == ("T1-movement", "MOVE A-1")

    capsys.readouterr()
    assert table.cli("submit", GAME, "Raiden", "STATUS") == 0  # STATUS is no order
    status = capsys.readouterr().out
    assert "Your accepted orders (received" in status and "  MOVE A-1" in status

    assert table.cli("advance", GAME) == 0  # T1-movement: Raiden arrives in A-1
    (arrival,) = table.npc_mails()
    assert "Room: A-1" in text_of(arrival)
    capsys.readouterr()
    assert table.cli("show", GAME, "Raiden") == 0
    shown = capsys.readouterr().out
    assert "Raiden (NPC): Neutral Renegade, alive, in A-1" in shown
    assert "Last orders (T1-movement): MOVE A-1" in shown
    assert (
        "[npcs] Turn 1, movement is over" in shown
        and "(NPC Raiden)" in shown
        and "Room: A-1" in shown
    )
