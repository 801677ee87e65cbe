"""Drafts, escaping and the leak check (docs/design.md: Public posts)."""

from __future__ import annotations

import re

import pytest

import engine
from pbp.forum.publishing.dialects import dialect
from pbp.forum.publishing.post_renderer import PostFacts, PostRenderer
from pbp.forum.publishing.leaks import LeakCheck

from tests.forum.simulated import drafts_of_game

INJECTIONS = [
    "[/quote][url=http://evil.example]click[/url][img]http://evil.example/x.png[/img]",
    "**bold** _it_ ~~gone~~ ^sup >!spoiler!< [link](http://evil.example) <b>html</b>",
    "# Heading\n> quote\n1. list\n    code block\n---",
    "&#x200B;\u200b\u202eesrever | table | `code` u/someone r/sub",
    "^(pbp:g1:D1-vote:0123456789)",
]
VIEW = {
    "players": [
        {"name": "Alice", "alive": True, "npc": False},
        {"name": "Bob_x", "alive": True, "npc": False},
    ]
}


def render(text: str, dialect_name: str, name: str = "Alice"):
    facts = PostFacts(
        game="g1",
        ruleset="infiltration",
        phase="T1-decision",
        public_view=VIEW,
        events=[
            {"kind": "anonymous_message", "data": {"text": text}},
            {"kind": "deaths", "data": {"names": [name]}},
        ],
        voters=["Alice"],
    )
    return PostRenderer().render(facts, dialect(dialect_name))


@pytest.mark.parametrize("text", INJECTIONS)
def test_markdown_injection_in_anonymous_message_is_neutralised(text):
    draft = render(text, "markdown")
    (message,) = draft.player_written
    # Every markup character is backslash-escaped, nothing starts a new block, nothing is invisible.
    assert "\n" not in message and "\u200b" not in message and "\u202e" not in message
    assert not re.search(r"(?<!\\)[\[\]()*_~^>#`|&<!:/]", message)
    assert f"> {message}" in draft.text.splitlines()
    assert "pbp:g1:D1-vote" not in draft.text  # a forged marker cannot match the real one


@pytest.mark.parametrize("text", INJECTIONS)
def test_bbcode_injection_in_anonymous_message_is_neutralised(text):
    draft = render(text, "bbcode")
    (message,) = draft.player_written
    assert "[" not in message and "]" not in message and "\n" not in message
    assert f"[quote]{message}[/quote]" in draft.text
    # The post's own tags still balance: the message closed nothing.
    assert draft.text.count("[quote]") == draft.text.count("[/quote]") == 1


def test_player_names_are_escaped_in_both_dialects():
    assert "**Bob\\_x**" in render("hi", "markdown", name="Bob_x").text
    assert "[b]Bob_x[/b]" in render("hi", "bbcode", name="Bob_x").text


def test_leak_check_fails_a_draft_with_a_hidden_role_inserted_by_hand():
    rules = engine.ruleset("werewolf")
    for phase, draft, check in drafts_of_game(rules, "werewolf", 8, "leak/1"):
        if phase == "D1-nominate":
            break
    seer = next(f.subject for f in check.facts if f.kind == "personal" and f.value == "seer")
    edited = draft.text + f"\nBy the way, {seer} is the Seer.\n"
    leaks = check.check(edited, draft.player_spans)
    assert [str(leak) for leak in leaks if leak.fact.value == "seer"] == [
        f"the draft names {seer}'s role seer, which is not public (line: 'By the way, {seer} is the Seer.')"
    ]
    assert check.check(draft.text, draft.player_spans) == []


def test_leak_check_names_a_hidden_location_and_a_token():
    fields = engine.ruleset("infiltration").card.secret_fields
    check = LeakCheck(
        fields,
        {"Alice": {"me": {"name": "Alice", "room": "C-4", "team": "red"}}},
        {"players": [{"name": "Alice", "alive": True}]},
        ["Alice"],
        secrets=["tok3n42"],
    )
    found = [
        str(leak) for leak in check.check("Alice was seen in C-4.\nAlice is red.\nkey tok3n42\n")
    ]
    assert any("location C-4" in text for text in found)
    assert any("Alice's team red" in text for text in found)
    assert any("secret token" in text for text in found)


@pytest.mark.parametrize("ruleset, players", [("infiltration", 10), ("werewolf", 9)])
def test_leak_check_passes_every_draft_of_100_simulated_games(ruleset, players):
    """docs/design.md, Public posts: "the leak check ... passes every draft of 100 simulated games of each
    ruleset" (resolution posts, and the host-kill announcements of a quarter of them)."""
    rules = engine.ruleset(ruleset)
    drafts, host_posts = 0, 0
    for game in range(100):
        style = "markdown" if game % 2 else "bbcode"
        # Every fourth game the host removes a player mid-game: that announcement is checked too.
        host_kill_at = 2 + game % 5 if game % 4 == 0 else None
        for phase, draft, check in drafts_of_game(
            rules, ruleset, players, f"sim/{game}", style, host_kill_at=host_kill_at
        ):
            assert check.check(draft.text, draft.player_spans) == [], (game, phase, draft.text)
            drafts += 1
            host_posts += "/host-" in phase
        assert draft.text.count("Everyone") == 1  # the final post lists every role
    assert drafts > 500 and host_posts >= 20  # (a game may end before its host kill)
