"""Mail worded as a good host writes it (docs/design.md: Conversations, The host's view): a
reply to a mail whose subject already starts with `Re:` gets one `Re:`, never `Re: Re:`;
a Red with no living fellow Red has nobody to write to, so their mail carries no `reds`
message form."""

from __future__ import annotations

import engine
from engine.core import PlayerSpec
from pbp.composition import ComposedModerator
from pbp.desk import Desk
from pbp.game.stored import load
from pbp.mail.header_values import reply_subject
from pbp.render.forms import order_form
from pbp.render.renderer import Renderer
from pbp.settings import load_settings
from pbp.cli import main

from tests.game.test_npc_and_dead_reports import host_mail, start_game
from pbp.storage.host_token import host_token


def test_a_reply_to_a_re_mail_has_one_re_in_its_subject(tmp_path, monkeypatch):
    assert [
        reply_subject(s) for s in ("Re: [inf1] NPC", "RE: Aw: Re[2]: [inf1] NPC", "[inf1] NPC")
    ] == ["Re: [inf1] NPC"] * 3
    settings = start_game(tmp_path, monkeypatch)
    assert main(["advance", "inf1"]) == 0
    with ComposedModerator(load_settings(str(settings))) as moderator:
        game = load(moderator, "inf1")
        with game.file.transaction():
            token = host_token(game.file)
        block = (
            f"BEGIN ORDERS inf1 T1-movement\nTOKEN: {token}\nNPC: Raiden\nMOVE B-4\nEND ORDERS\n"
        )
        assert (
            Desk(moderator).receive(host_mail(block, "npc:re")) == "processed"
        )  # its subject: "Re: [inf1] NPC"
        (reply,) = [
            r for r in load(moderator, "inf1").file.outbox.all() if r["kind"] == "npc-receipt"
        ]
    assert reply["subject"] == "Re: [inf1] NPC"


def test_a_lone_red_gets_no_reds_message_form():
    rules = engine.ruleset("infiltration")
    names = ("Ana", "Ben", "Cy", "Di", "Ed")  # five players: one Red
    state = rules.new_game([PlayerSpec(n) for n in names], "lone", {})
    (red,) = [n for n in names if rules.status(state, n).team == "red"]
    status = rules.status(state, red)
    assert status.teammates == {"Reds": ()} and status.channels == ()
    form = order_form("inf1", rules.phase(state), red, "t0k3n", "soon", status.channels)
    text = Renderer().order_form(form, {"id": "inf1", "ruleset": "infiltration"})
    assert "reds" not in text.lower()
    two = rules.new_game(
        [PlayerSpec(n) for n in (*names, "Flo", "Gus", "Hal", "Ivy", "Jo")], "pair", {}
    )
    reds = [
        n for n in (*names, "Flo", "Gus", "Hal", "Ivy", "Jo") if rules.status(two, n).team == "red"
    ]
    assert len(reds) == 2 and all(rules.status(two, n).channels == ("reds",) for n in reds)
