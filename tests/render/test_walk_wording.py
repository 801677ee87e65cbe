"""Wording a host noticed on a walk through a forum game (docs/design.md: Public posts, "as
a forum host writes them"): lists end with "and", counts agree with their nouns, an error
quoted from a forum ends a sentence, an empty team is not listed, a refused sign-up says
what was refused, and an example never looks like a real player's account."""

from __future__ import annotations

from engine.werewolf.card import character_summary
from pbp.mail.wrapping import wrap_body
from pbp.render.renderer import Renderer
from pbp.render.verdicts import Accepted, Note, Refused
from tests.forum.test_good_host_wording import post

GAME = {"id": "ww7", "ruleset": "werewolf"}


def test_a_runoff_names_its_tied_players_with_and():
    text = post(
        "werewolf",
        [
            {
                "kind": "runoff_draw",
                "data": {"day": 1, "among": ["Alice", "Chloé"], "drawn": ["Alice"]},
            }
        ],
        phase="D1-runoff",
    )
    assert "the draw picks Alice among Alice and Chloé." in text


def test_the_last_wolf_knows_no_other():
    lines = character_summary(
        {
            "me": {
                "role": "werewolf",
                "faction": "werewolves",
                "alive": True,
                "teams": {"wolves": []},
            }
        }
    )
    assert not any(str(line).startswith("Knows the wolves") for line in lines)
    lines = character_summary(
        {
            "me": {
                "role": "werewolf",
                "faction": "werewolves",
                "alive": True,
                "teams": {"wolves": ["Bruno"]},
            }
        }
    )
    assert "Knows the wolves: Bruno" in [str(line) for line in lines]  # the English


def test_an_unreadable_thread_s_error_ends_a_sentence():
    note = Note(
        "thread_unreadable",
        game_id="ww7",
        phase_words="Day 2 — vote",
        error="Discourse is unavailable (HTTP 503)",
    )
    body = Renderer().render("host_note", "werewolf", game=GAME, note=note).body
    assert "The forum cannot be read now: Discourse is unavailable (HTTP 503)." in " ".join(
        body.split()
    )


def test_a_signed_up_mail_with_one_size_names_it_once():
    joined = Accepted(
        "joined",
        game_id="ww7",
        name="Alice",
        place=3,
        players_min=8,
        players_max=8,
        timezone="",
        forum_name="",
        started=False,
        closes="soon",
    )
    mail = Renderer().render("signup", "werewolf", game=GAME, name="Alice", code="", answer=joined)
    assert "(the game takes 8 players)" in " ".join(mail.body.split())


def test_a_refused_join_says_what_was_refused_and_its_example_is_nobody_s():
    renderer = Renderer()
    mail = renderer.render(
        "signup",
        "werewolf",
        game=GAME,
        name="Alice",
        code="",
        answer=Refused("already_signed_up", game_id="ww7", name="Alice"),
    )
    assert "Nothing changed" not in mail.subject and "ww7" in mail.subject
    asked = Accepted(
        "join_requested",
        game_id="ww7",
        ruleset="werewolf",
        name="Alice",
        timezone="",
        forum_name="",
        started=False,
        code="abc",
        closes="soon",
    )
    body = renderer.render(
        "signup", "werewolf", game=GAME, name="Alice", code="abc", answer=asked
    ).body
    assert "alice_k" not in body and "FORUM=your_forum_name" in wrap_body(body).replace("\n", " ")
