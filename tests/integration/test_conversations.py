"""Conversations end to end (docs/design.md: Conversations): real Dovecot and aiosmtpd, the
real desk, `pbp new-game`, `pbp poll`, `pbp advance`, `pbp reply`, `pbp channel`; every
relay, receipt and refusal read back from the players' real mailboxes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pbp.cli import main as pbp
from pbp.composition import ComposedModerator
from pbp.game.stored import load
from pbp.demo.players import mail_text
from pbp.settings import load_settings
from pbp.host.status import status_text
from tests.fixtures.harness import imap_over_tls, plain_smtp, write_settings
from tests.fixtures.mailserver import Player
from tests.fixtures.text import flat

pytestmark = pytest.mark.integration
NAMES = ["Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hugo"]
ROLES = "roles=werewolf,howler,mason,mason,romantic,weregerbil,seer,villager"


def read(box: Player, at_least: int = 1) -> list[str]:
    """New mails of a mailbox, each as its subject line and text."""
    return [
        f"Subject: {m['Subject']}\n" + mail_text(m).replace("\r\n", "\n")
        for m in box.read_new(at_least=at_least, timeout=10 if at_least else 0.5)
    ]


class Village:
    """One Werewolf game (two wolves, two Masons, a Romantic, a Weregerbil) over the test
    mail servers, with the host's address set."""

    def __init__(self, root: Path, dovecot, smtp_server, game_id: str) -> None:
        self.game_id = game_id
        self.moderator_address = dovecot.add_user(dovecot.new_address("pbp", "pbp.test"), "modpass")
        self.host = Player(
            dovecot.add_user(dovecot.new_address("host", "host.test")), dovecot, smtp_server
        )
        self.players = {
            name: Player(dovecot.add_user(dovecot.new_address(name.lower())), dovecot, smtp_server)
            for name in NAMES
        }
        self.settings = root / "pbp.ini"
        village_settings(root, dovecot, smtp_server, self)
        roster = root / "roster.csv"
        roster.write_text(
            "name,email\n" + "".join(f"{n},{p.address}\n" for n, p in self.players.items())
        )
        assert (
            self.cli(
                "new-game",
                "--ruleset",
                "werewolf",
                "--roster",
                str(roster),
                "--seed",
                "11",
                "--id",
                game_id,
                "--schedule",
                "default=48h",
                "--option",
                ROLES,
            )
            == 0
        )
        for player in self.players.values():
            player.read_new()
        self.host.read_new(at_least=0, timeout=0.5)  # the opening draft, if any

    def cli(self, *arguments: str) -> int:
        return pbp([arguments[0], "--settings", str(self.settings), *arguments[1:]])

    def game(self):
        with ComposedModerator(load_settings(str(self.settings))) as moderator:
            return load(moderator, self.game_id)

    def status(self) -> str:
        with ComposedModerator(load_settings(str(self.settings))) as moderator:
            return status_text(moderator.folder, self.game_id)

    def with_role(self, *roles: str) -> list[str]:
        game = self.game()
        return [n for n in NAMES if game.rules.status(game.state, n).label in roles]

    def token(self, name: str) -> str:
        return self.game().record.tokens[name]

    def say(
        self, name: str, channel: str, text: str, token: str | None = None, extra: str = ""
    ) -> None:
        body = (
            f"{extra}BEGIN MESSAGE {self.game_id} {channel}\nTOKEN: {token or self.token(name)}\n"
            f"{text}\nEND MESSAGE\n"
        )
        self.players[name].send(self.moderator_address, "message", body)

    def order(self, name: str, orders: str) -> str:
        phase = self.game().phase.id
        return f"BEGIN ORDERS {self.game_id} {phase}\nTOKEN: {self.token(name)}\n{orders}\nEND ORDERS\n"

    def poll(self) -> None:
        assert self.cli("poll") == 0

    def advance(self) -> None:
        assert self.cli("advance", self.game_id) == 0

    def inbox(self, name: str, at_least: int = 1) -> list[str]:
        return read(self.players[name], at_least)

    def quiet(self, *names: str) -> None:
        """Nobody in `names` got any mail."""
        for name in names:
            assert self.inbox(name, at_least=0) == [], name


@pytest.fixture(scope="module")
def village(tmp_path_factory, dovecot, smtp_server):
    return Village(tmp_path_factory.mktemp("village"), dovecot, smtp_server, "ww1")


def test_masons_talk_and_nobody_else_hears(village):
    first, second = village.with_role("mason")
    village.say(first, "masons", "I trust nobody but you.")
    village.poll()
    (receipt,) = village.inbox(first)
    assert "Message sent" in receipt and "Your message to masons was sent" in receipt
    (relay,) = village.inbox(second)
    assert f"{first} wrote to masons" in relay and "    I trust nobody but you." in relay
    assert f"BEGIN MESSAGE ww1 masons\nTOKEN: {village.token(second)}" in relay  # ready to answer
    assert village.players[first].address not in relay
    village.quiet(*[n for n in NAMES if n not in (first, second)])


def test_a_channel_one_is_not_in_is_refused_in_the_same_words_whether_it_exists_or_not(village):
    (seer,) = village.with_role("seer")
    village.say(seer, "pack", "Hello wolves")
    village.poll()
    village.say(seer, "vampires", "Hello vampires")
    village.poll()
    first, second = village.inbox(seer, at_least=2)
    assert "Message NOT sent" in first
    assert flat(first).replace("pack", "X") == flat(second).replace("vampires", "X")
    village.quiet(*[n for n in NAMES if n != seer])


def test_a_question_to_the_host_and_the_answers_by_command_and_by_mail(village):
    asker = village.with_role("villager")[0]
    village.say(asker, "host", "Can I vote for myself?", extra="Hi host!\n\n")
    village.poll()
    (receipt,) = village.inbox(asker)
    assert "Your message to host was sent to the host" in receipt
    assert (
        "the text you wrote around them was not" in receipt
    )  # the greeting: only the block is read
    (question,) = read(village.host)
    assert f"{asker} wrote to the host" in question and "Can I vote for myself?" in question
    assert f"messages to the host not answered yet: {asker} (N0)" in village.status()
    assert village.cli("reply", "ww1", asker, "Yes, you may.") == 0
    assert "not answered yet" not in village.status()
    (answer,) = village.inbox(asker)
    assert "The host of ww1 answers" in answer and "    Yes, you may." in answer
    # The host answers by replying to the relay, its block holding the host token.
    token_line = next(line for line in question.splitlines() if line.startswith("TOKEN:"))
    village.host.send(
        village.moderator_address,
        "Re: question",
        f"BEGIN MESSAGE ww1 {asker}\n{token_line}\nAnd no, not twice.\nEND MESSAGE\n",
    )
    village.poll()
    (second_answer,) = village.inbox(asker)
    assert "    And no, not twice." in second_answer
    (host_receipt,) = read(village.host)
    assert f"Sent your answer to {asker}." in host_receipt
    village.quiet(*[n for n in NAMES if n != asker])


def test_free_text_outside_a_block_is_said_to_be_unread(village):
    (seer,) = village.with_role("seer")
    village.players[seer].send(
        village.moderator_address,
        "orders",
        "Who is the host?\n\n" + village.order(seer, "# nothing"),
    )
    village.poll()
    (receipt,) = village.inbox(seer)
    assert "the text you wrote around them was not" in receipt and "mail HELP" in receipt
    village.players[seer].send(village.moderator_address, "help", "HELP")
    village.poll()
    (help_mail,) = village.inbox(seer)
    assert help_mail.rstrip().endswith(
        f"BEGIN MESSAGE ww1 host\nTOKEN: {village.token(seer)}\n"
        "# your message to the host\nEND MESSAGE"
    )


def advance_to(village: Village, prefix: str) -> None:
    while not village.game().phase.id.startswith(prefix):
        village.advance()
    for name in NAMES:
        village.inbox(name, at_least=0)  # the reports: read, so later checks see only what follows
    read(village.host, at_least=0)


def test_lovers_talk(village):
    (romantic,) = village.with_role("romantic")
    (seer,) = village.with_role("seer")
    village.players[romantic].send(
        village.moderator_address, "orders", village.order(romantic, f"LOVE {seer}")
    )
    village.poll()
    village.inbox(romantic)
    advance_to(village, "D1")
    village.say(seer, "lovers", "Whatever happens, I am with you.")
    village.poll()
    village.inbox(seer)
    (relay,) = village.inbox(romantic)
    assert f"{seer} wrote to lovers" in relay and "Whatever happens, I am with you." in relay
    village.quiet(*[n for n in NAMES if n not in (romantic, seer)])


def test_wolves_agree_on_a_kill_through_the_pack(village):
    advance_to(village, "N1")
    wolf, howler = village.with_role("werewolf") + village.with_role("howler")
    victim = village.with_role("villager")[0]
    (gerbil,) = village.with_role("weregerbil")
    (romantic,) = village.with_role("romantic")
    bitten = village.with_role("mason")[0]
    village.bitten = (gerbil, bitten)
    village.say(gerbil, "team", "Nobody hears me yet.")
    village.poll()
    village.inbox(gerbil)
    village.players[wolf].send(
        village.moderator_address,
        "orders",
        village.order(wolf, f"KILL {victim}")
        + f"\nBEGIN MESSAGE ww1 pack\nTOKEN: {village.token(wolf)}\n{victim}?\nEND MESSAGE\n",
    )
    village.poll()
    (receipt,) = village.inbox(wolf)
    assert "Orders received" in receipt and f"{wolf}: KILL {victim}; {howler}: none yet" in flat(
        receipt
    )
    (relay,) = village.inbox(howler)
    assert (
        f"{wolf} wrote to pack" in relay
        and f"{wolf}: KILL {victim}; {howler}: none yet" in flat(relay)
    )
    village.players[howler].send(
        village.moderator_address,
        "orders",
        village.order(howler, f"KILL {victim}\nSILENCE {romantic}")
        + f"\nBEGIN MESSAGE ww1 team\nTOKEN: {village.token(howler)}\nAgreed.\nEND MESSAGE\n",
    )
    village.players[gerbil].send(
        village.moderator_address, "orders", village.order(gerbil, f"BITE {bitten}")
    )
    village.poll()
    village.inbox(howler)
    village.inbox(gerbil)
    (agreed,) = village.inbox(wolf)
    assert "Agreed." in agreed and f"{wolf}: KILL {victim}; {howler}: KILL {victim}" in flat(agreed)
    village.quiet(*[n for n in NAMES if n not in (wolf, howler, gerbil)])
    advance_to(village, "D2")
    game = village.game()
    assert not game.rules.status(game.state, victim).alive


def test_a_silenced_player_is_refused_for_the_day(village):
    (romantic,) = village.with_role("romantic")
    (seer,) = village.with_role("seer")
    village.say(romantic, "lovers", "They silenced me!")
    village.poll()
    (refusal,) = village.inbox(romantic)
    assert "Message NOT sent" in refusal and "you are silenced for today" in flat(refusal)
    village.quiet(seer)


def test_a_bitten_mason_joins_the_gerbils_and_sees_only_later_messages(village):
    gerbil, bitten = village.bitten
    game = village.game()
    assert "gerbils" in game.rules.status(game.state, bitten).channels
    village.say(gerbil, "gerbils", "Welcome, friend.")
    village.poll()
    village.inbox(gerbil)
    (relay,) = village.inbox(bitten)
    assert "Welcome, friend." in relay and "Nobody hears me yet." not in relay
    assert "BEGIN MESSAGE ww1 gerbils" in relay


def test_a_split_pack_is_flagged_to_the_host_and_told_at_dawn(village, capsys):
    advance_to(village, "N2")
    wolf, howler = village.with_role("werewolf") + village.with_role("howler")
    game = village.game()
    others = [
        n for n in NAMES if n not in (wolf, howler) and game.rules.status(game.state, n).alive
    ]
    village.players[wolf].send(
        village.moderator_address, "orders", village.order(wolf, f"KILL {others[0]}")
    )
    village.players[howler].send(
        village.moderator_address, "orders", village.order(howler, f"KILL {others[1]}")
    )
    village.poll()
    capsys.readouterr()
    assert village.cli("orders", "ww1") == 0
    assert "The pack is split" in capsys.readouterr().out
    (receipt,) = village.inbox(wolf)
    assert f"The pack's KILL orders so far in Night 2: {wolf}: KILL {others[0]}" in flat(
        receipt
    )  # the order receipt too
    village.inbox(howler)
    village.advance()
    for name in (wolf, howler):
        assert any(
            "You did not agree, so nobody was killed" in flat(text) for text in village.inbox(name)
        )


def test_a_dead_wolf_cannot_write_to_the_pack(village):
    wolf, howler = village.with_role("werewolf") + village.with_role("howler")
    assert village.cli("modkill", "ww1", howler, "broke", "the", "silence") == 0
    for name in NAMES:
        village.inbox(name, at_least=0)
    village.say(howler, "pack", "I am still here")
    village.poll()
    (refusal,) = village.inbox(howler)
    assert "Message NOT sent" in refusal and "the dead write to no team channel" in refusal
    village.quiet(wolf)
    assert village.cli("channel", "ww1", "pack") == 0


@pytest.fixture(scope="module")
def facility(tmp_path_factory, dovecot, smtp_server):
    """An Infiltration game of six players, two of them Red, and a Red NPC the host plays."""
    root = tmp_path_factory.mktemp("facility")
    table = Village.__new__(Village)
    table.game_id = "inf1"
    table.moderator_address = dovecot.add_user(dovecot.new_address("pbp", "pbp.test"), "modpass")
    table.host = Player(
        dovecot.add_user(dovecot.new_address("host", "host.test")), dovecot, smtp_server
    )
    table.players = {
        name: Player(dovecot.add_user(dovecot.new_address(name.lower())), dovecot, smtp_server)
        for name in NAMES[:6]
    }
    table.settings = root / "pbp.ini"
    village_settings(root, dovecot, smtp_server, table)
    roster = root / "roster.csv"
    roster.write_text(
        "name,email\n" + "".join(f"{n},{p.address}\n" for n, p in table.players.items())
    )
    assert (
        table.cli(
            "new-game",
            "--ruleset",
            "infiltration",
            "--roster",
            str(roster),
            "--seed",
            "5",
            "--id",
            "inf1",
            "--schedule",
            "default=48h",
            "--option",
            "reds=2",
            "--npc",
            "Raiden:renegade:red",
        )
        == 0
    )
    for player in table.players.values():
        player.read_new()
    read(table.host, at_least=0)
    return table


def village_settings(root: Path, dovecot, smtp_server, table: Village) -> Path:
    return write_settings(
        root / "pbp.ini",
        {
            "pbp": {
                "data": root / "data",
                "transport": "imap",
                "from_address": table.moderator_address,
                "replies_per_sender_per_day": 1000,
            },
            "imap": imap_over_tls(dovecot, table.moderator_address, password="modpass"),
            "smtp": plain_smtp(smtp_server),
            "forum": {"host_address": table.host.address, "posts": root / "posts"},
        },
    )


def test_reds_plan_with_a_red_npc_played_by_the_host(facility, capsys):
    game = facility.game()
    reds = [n for n in NAMES[:6] if "reds" in game.rules.status(game.state, n).channels]
    greens = [n for n in NAMES[:6] if n not in reds]
    assert len(reds) == 2
    facility.say(reds[0], "team", "Raiden, take the generator.")
    facility.poll()
    facility.inbox(reds[0])
    (relay,) = facility.inbox(reds[1])
    assert f"{reds[0]} wrote to reds" in relay and "BEGIN MESSAGE inf1 reds" in relay
    (copy,) = read(facility.host)
    assert (
        "a channel of Raiden, the NPC you play" in flat(copy)
        and "Raiden, take the generator." in copy
    )
    block = copy[copy.index("BEGIN MESSAGE inf1 reds Raiden") : copy.index("END MESSAGE")]
    facility.host.send(
        facility.moderator_address,
        "Re: reds",
        block.replace("# write to reds as Raiden", "On my way.") + "END MESSAGE\n",
    )
    facility.poll()
    (host_receipt,) = read(facility.host)
    assert "Sent to reds as Raiden." in host_receipt
    for red in reds:
        (from_npc,) = facility.inbox(red)
        assert "Raiden wrote to reds" in from_npc and "    On my way." in from_npc
    assert (
        facility.cli("channel", "inf1", "reds", "--as", "Raiden", "--say", "Generator taken.") == 0
    )
    for red in reds:
        assert "Generator taken." in facility.inbox(red)[0]
    facility.quiet(*greens)
    capsys.readouterr()
    assert facility.cli("channel", "inf1", "reds") == 0
    log = capsys.readouterr().out
    assert (
        log.index("Raiden, take the generator.")
        < log.index("On my way.")
        < log.index("Generator taken.")
    )


def test_a_crash_between_storing_a_message_and_sending_its_relays_loses_nothing_and_sends_once(
    facility,
):
    """SIGKILL after the mail's commit (the message stored, its relays queued) and before
    any is sent; the next poll sends each relay exactly once, with its ledger Message-ID."""
    game = facility.game()
    reds = [n for n in NAMES[:6] if "reds" in game.rules.status(game.state, n).channels]
    facility.say(reds[1], "reds", "Meet at the hangar.")
    crashed = subprocess.run(
        [sys.executable, "-m", "pbp", "poll", "--settings", str(facility.settings)],
        env={**os.environ, "PBP_CRASH_AT": "after-commit"},
        capture_output=True,
        timeout=120,
    )
    assert crashed.returncode == -signal.SIGKILL
    facility.poll()
    facility.poll()
    (relay,) = facility.players[reds[0]].read_new()
    (receipt,) = facility.players[reds[1]].read_new()
    (copy,) = facility.host.read_new()
    assert "Meet at the hangar." in mail_text(relay) and "Message sent" in str(receipt["Subject"])
    rows = [row for row in facility.game().file.outbox.all() if row["kind"] == "message"]
    assert str(relay["Message-ID"]) in {row["message_id"] for row in rows}
    assert all(facility.inbox(name, at_least=0) == [] for name in NAMES[:6])
