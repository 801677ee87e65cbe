"""The leak check's own mechanics (pbp.forum.publishing.leaks): which facts it takes from the views,
and that its quick rejection (one search of the whole text before the line-by-line look)
finds exactly what a look at every line finds."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import SecretFields
from engine.infiltration.rooms import parse_room
from pbp.forum.publishing.leaks import LeakCheck, _word

# A card's declaration with fields of both rulesets' kinds: roles, teams, classes, rooms, a code.
FIELDS = SecretFields(
    personal=frozenset({"role", "team", "class"}),
    places=frozenset({"room"}),
    secrets=frozenset({"code"}),
    place_form=parse_room,
    subjects=("name", "player"),
)

VIEWS = {
    "Bob": {
        "me": {"name": "Bob", "role": "seer", "room": "C-4"},
        "teammates": {"Dan": {"team": "red"}},
        "code": "XK-221",
    },
    "Eve": {
        "me": {"name": "Eve", "role": "villager"},
        "known": [{"player": "Bob", "class": "hacker"}],
    },
}
PUBLIC = {
    "players": [{"name": "Bob"}, {"name": "Dan"}, {"name": "Eve"}],
    "dead": [{"name": "Eve", "role": "villager"}],
}
NAMES = ["Bob", "Dan", "Eve"]


def test_facts_are_taken_in_view_order_about_the_person_each_record_names():
    check = LeakCheck(FIELDS, VIEWS, PUBLIC, NAMES)
    facts = [(fact.kind, fact.subject, fact.value) for fact in check.facts]
    assert facts == [
        ("personal", "Bob", "seer"),
        ("place", None, "C-4"),
        ("personal", "Dan", "red"),
        ("secret", None, "XK-221"),
        ("personal", "Bob", "hacker"),
    ]
    # Eve's role is public (the dead list names it), so it is no fact to hide.


def test_a_person_and_a_value_on_different_lines_are_no_leak():
    check = LeakCheck(FIELDS, VIEWS, PUBLIC, NAMES)
    assert check.check("Bob spoke.\nA seer was mentioned.\n") == []
    assert [str(leak.fact.value) for leak in check.check("Day 2.\nBob, the seer, spoke.\n")] == [
        "seer"
    ]
    assert [leak.line for leak in check.check("Quiet.\nSomeone was in c-4.\n")] == [
        "Someone was in c-4."
    ]


def _line_by_line(check: LeakCheck, text: str) -> list[tuple[str, str]]:
    """The check without its quick rejection: every fact looked for on every line."""
    found = []
    lines = text.splitlines()
    for fact in check.facts:
        if fact.kind == "personal":
            value, subject = _word(fact.value), _word(fact.subject or "")
            line = next((ln for ln in lines if value.search(ln) and subject.search(ln)), None)
        elif fact.kind == "place":
            room = re.compile(
                rf"(?<![\w-]){fact.value[0]}-{fact.value[-1]}(?![\w-])", re.IGNORECASE
            )
            line = next((ln for ln in lines if room.search(ln)), None)
        else:
            line = next((ln for ln in lines if fact.value.lower() in ln.lower()), None)
        if line is not None:
            found.append((fact.value, line))
    return found


WORDS = st.sampled_from(
    [
        "Bob",
        "Dan",
        "Eve",
        "seer",
        "SEER",
        "red",
        "hacker",
        "C-4",
        "c4",
        "XK-221",
        "the",
        "-",
        "x",
        "seer-like",
        "Bobby",
    ]
)
SEPARATORS = st.sampled_from([" ", " ", ", ", "\n", "\r\n", "\u2028", "\x0c", "-"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(WORDS, SEPARATORS), max_size=12))
def test_the_quick_rejection_finds_what_a_look_at_every_line_finds(parts):
    text = "".join(word + separator for word, separator in parts)
    check = LeakCheck(FIELDS, VIEWS, PUBLIC, NAMES)
    assert [(leak.fact.value, leak.line) for leak in check.check(text)] == _line_by_line(
        check, text
    )
