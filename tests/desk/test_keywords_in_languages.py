"""Every language's order keywords are accepted from every player and read as the English
ones before the engine sees them; a form and a receipt write the keywords in their
reader's language (docs/design.md: Languages — order keywords)."""

from __future__ import annotations

import pytest

import engine
from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.record_parts import RosterPlayer
from pbp.game.stored import load
from pbp.mail.ingest.inbound import parse_inbound
from pbp.render.forms import form_in_language
from pbp.render.renderer import Renderer
from pbp.render.verdicts import Accepted
from pbp.settings import Settings
from tests.desk.test_desk import mail
from tests.fixtures.clocks import Clock
from tests.fixtures.harness import ToyModerator

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
INFILTRATION = engine.ruleset("infiltration").card


def _send(moderator, desk, game, name, lines, number):
    before = len(load(moderator, "in1").file.outbox.all())
    text = "\n".join(
        [f"BEGIN ORDERS in1 {game.phase.id}", f"TOKEN: {game.token(name)}", *lines, "END ORDERS"]
    )
    raw = mail(text, sender=f"{name.lower()}@example.org", message_id=f"<k{number}@x>")
    assert desk.receive(parse_inbound(raw, ("pbp@games.example",), 10**6)) == "processed"
    (row,) = [
        row for row in load(moderator, "in1").file.outbox.all()[before:] if row["kind"] == "receipt"
    ]
    return " ".join(row["body"].split())


def test_german_and_spanish_keywords_are_read_as_english(moderator):
    game = create_game(
        moderator,
        "infiltration",
        [RosterPlayer(n, f"{n.lower()}@example.org") for n in NAMES],
        seed="w",
        game_id="in1",
    )
    name = next(n for n in NAMES if "HACKER" in game.phase.grammar[n][0].choices)
    desk = Desk(moderator)
    german = _send(moderator, desk, game, name, ["klasse hacker"], 1)
    assert "CLASS HACKER" in german
    assert load(moderator, "in1").latest_order(game.phase.id, name).text == "CLASS HACKER"
    spanish = _send(moderator, desk, game, name, ["RETIRAR CLASE"], 2)
    assert "Taken back for Turn 0" in spanish


def test_a_receipt_echoes_the_order_in_its_readers_keywords():
    verdict = Accepted(
        "orders_accepted",
        phase_words="Day 1 — vote",
        lines=("VOTE Bruno", "NOMINATE Ana"),
        received="now",
        taken_back=None,
        defaults=(),
    )
    assert "  VOTE Bruno" in Renderer().word(verdict)
    german = Renderer(language="de").word(verdict)
    assert "  ABSTIMMEN Bruno" in german and "  NOMINIEREN Ana" in german


def test_the_form_shows_the_readers_keywords():
    form = {
        "game": "in1",
        "phase": "T1-movement",
        "token": "t",
        "deadline": "soon",
        "channels": [],
        "orders": [
            {
                "keyword": "MOVE",
                "syntax": "MOVE <room>",
                "line": "MOVE <room>",
                "choices": [],
                "note": "",
            }
        ],
        "thread_orders": [
            {
                "keyword": "VOTE",
                "syntax": "VOTE <player>",
                "line": "VOTE <choice>",
                "choices": ["A"],
                "note": "",
                "take_back": "UNVOTE",
            }
        ],
    }
    assert form_in_language(form, INFILTRATION, "en") is form
    spanish = form_in_language(form, INFILTRATION, "es")
    assert spanish["orders"][0]["line"] == "MOVER <room>"
    assert (spanish["thread_orders"][0]["line"], spanish["thread_orders"][0]["take_back"]) == (
        "VOTAR <choice>",
        "DESVOTAR",
    )
    assert spanish["withdraw"] == "RETIRAR <order>|TODO"


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("abstimmen Bruno", "VOTE Bruno"),
        ("  VOTAR Bruno", "  VOTE Bruno"),
        ("WITHDRAW ABSTIMMEN", "WITHDRAW VOTE"),
        ("retirar votar", "WITHDRAW VOTE"),
        ("ZURUECKNEHMEN ALLE", "WITHDRAW ALL"),
        ("withdraw vote", "withdraw vote"),
        ("VOTE Bruno", "VOTE Bruno"),
        ("# VOTAR Bruno", "# VOTAR Bruno"),
        ("I will vote later", "I will vote later"),
    ],
)
def test_a_line_is_read_with_its_english_keyword(written, read):
    from pbp.render.keyword_names import english_line

    assert english_line(written, engine.ruleset("werewolf").card) == read
