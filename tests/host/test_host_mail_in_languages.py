"""Every kind of mail pbp writes to the host, with `[pbp] host_language` German or Spanish,
holds no English and fits a phone (docs/design.md: Languages — the host's mail and the
last English words): the NPC's welcome and reports, the drafts, the receipts of the host's
NPC blocks (accepted, and refused for each reason: an unknown NPC, a closed phase, orders
that do not read, no `NPC:` line, a wrong host token) of refused channel messages and of an approval of no draft, each read with the stop-list of the
translated demos (tests/render/test_no_english_left.py), no line over 72 columns."""

from __future__ import annotations

import configparser
from pathlib import Path

import pytest

from pbp.cli import main
from pbp.composition import ComposedModerator
from pbp.desk import Desk
from pbp.game.stored import load
from pbp.mail.wrapping import WIDTH, wrap_body
from pbp.settings import load_settings
from pbp.storage.host_token import host_token
from tests.game.test_npc_and_dead_reports import ROSTER, host_mail
from tests.render.test_no_english_left import english_left

HOST = "host@example.org"


def start_game(tmp_path: Path, language: str) -> Path:
    """An Infiltration game `inf1` with the NPC Raiden, its host and thread in `language`."""
    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", str(tmp_path / "data")]) == 0
    config = configparser.ConfigParser(interpolation=None)
    config.read(settings)
    config["forum"]["host_address"] = HOST
    config["pbp"]["host_language"] = language
    with open(settings, "w") as handle:
        config.write(handle)
    (tmp_path / "roster.csv").write_text(ROSTER)
    return settings


@pytest.fixture(scope="module", params=["de", "es"])
def host_mails(request, tmp_path_factory) -> list[dict[str, str]]:
    """Every mail to the host of an Infiltration game with the NPC Raiden, in the host's
    language `request.param`, after the host sent a block of each kind."""
    tmp_path = tmp_path_factory.mktemp(f"host-{request.param}")
    with pytest.MonkeyPatch.context() as patch:
        settings = start_game(tmp_path, request.param)
        patch.setenv("PBP_SETTINGS", str(settings))
        new_game = [
            "new-game",
            "--ruleset",
            "infiltration",
            "--roster",
            str(tmp_path / "roster.csv"),
        ]
        new_game += ["--npc", "Raiden:renegade:red", "--id", "inf1", "--seed", "7", "--no-send"]
        assert main([*new_game, "--option", f"language={request.param}"]) == 0
        assert main(["advance", "inf1"]) == 0  # T1-movement, and the NPC's report
        moderator = ComposedModerator(load_settings(str(settings)))
        with moderator:
            game = load(moderator, "inf1")
            with game.file.transaction():
                token = host_token(game.file)
            blocks = [
                f"TOKEN: {token}\nNPC: Snake\nMOVE A-1",
                f"TOKEN: {token}\nNPC: Raiden\nMOVE Z-9\nFOO",
                f"TOKEN: {token}\nMOVE B-4",
                "TOKEN: wrong\nNPC: Raiden\nMOVE B-4",
                f"TOKEN: {token}\nNPC: Raiden\nMOVE B-4",
            ]
            desk = Desk(moderator)
            for number, block in enumerate(blocks):
                text = f"BEGIN ORDERS inf1 T1-movement\n{block}\nEND ORDERS\n"
                desk.receive(host_mail(text, f"npc:{number}"))
            text = (
                f"BEGIN ORDERS inf1 T0-class\nTOKEN: {token}\nNPC: Raiden\nMOVE A-1\nEND ORDERS\n"
            )
            desk.receive(host_mail(text, "npc:closed"))
            messages = [  # each refused: an NPC to answer, a player to speak as, no channel
                f"BEGIN MESSAGE inf1 Raiden\nTOKEN: {token}\nHallo\nEND MESSAGE\n",
                f"BEGIN MESSAGE inf1 reds Alice\nTOKEN: {token}\nHallo\nEND MESSAGE\n",
                f"BEGIN MESSAGE inf1 nowhere Raiden\nTOKEN: {token}\nHallo\nEND MESSAGE\n",
            ]
            for number, text in enumerate(messages):
                desk.receive(host_mail(text, f"message:{number}"))
            desk.receive(host_mail(f"APPROVE inf1 T9-movement\nTOKEN: {token}\n", "approve"))
            rows = load(moderator, "inf1").file.outbox.all()
    return [dict(row) for row in rows if row["address"] == HOST]


def test_every_mail_to_the_host_is_in_the_hosts_language(host_mails):
    kinds = {row["kind"] for row in host_mails}
    assert {"npc-welcome", "npc-report", "npc-receipt", "host-reply"} <= kinds, kinds
    refused = [row["body"] for row in host_mails if row["kind"] == "host-reply"]
    assert len(refused) == 4 and "T9-movement" in refused[-1], refused  # 3 messages, 1 approval
    left = {
        f"{row['kind']}: {found}"
        for row in host_mails
        for found in english_left(row["subject"] + "\n" + row["body"])
    }
    assert not left, "English in the host's mail:\n" + "\n".join(sorted(left))


def test_every_line_to_the_host_fits_a_phone(host_mails):
    """As sent: the body wrapped as the outbox wraps it (pbp.mail.wrapping)."""
    sent = [wrap_body(row["body"]) for row in host_mails]
    long = [line for body in sent for line in body.split("\n") if len(line) > WIDTH]
    assert not long, long
