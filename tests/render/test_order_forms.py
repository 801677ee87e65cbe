"""Order forms made to be filled in literally (docs/design.md: Order mail format — forms made
to be replied to): deleting the # in front of an order's line and putting a choice in place
of its <…> gives an order the engine accepts, in every phase of whole games of both
rulesets; hints and choices never sit on the order's own line."""

from __future__ import annotations

import re

import pytest

import engine
from engine.core import PlayerSpec
from pbp.render.forms import choice_lines, comment_lines, form_line, order_form
from pbp.mail.wrapping import WIDTH

# A value for each placeholder an order without listed choices takes.
SAMPLES = {
    "<floor>=<room>": "A=B-2",
    "<room>": "B-2",
    "<four digits>": "1234",
    "<text>": "the hangar is open",
    "<statement>": "HANGAR DOOR IS OPEN",
    "<class>": "WARRIOR",
}


def literally_filled(line: str, choice: str | None) -> str:
    """What a player writes following the form's instruction to the letter."""
    filled = line
    for placeholder, sample in SAMPLES.items():
        filled = filled.replace(placeholder, sample if placeholder != "<room>" else "{room}")
    rooms = iter(("B-2", "C-3", "D-4", "E-5", "F-6"))
    filled = re.sub(r"\{room\}", lambda _m: next(rooms), filled)
    if choice is not None:
        filled = re.sub(r"<[^>]+>", choice, filled, count=1)
    return filled


def phases_of_a_game(ruleset: str, players: int, seed: str):
    rules = engine.ruleset(ruleset)
    names = [f"P{chr(97 + i)}" for i in range(players)]
    state = rules.new_game([PlayerSpec(name) for name in names], seed, {})
    for _ in range(60):
        phase = rules.phase(state)
        if phase is None:
            return
        yield rules, state, phase
        orders = {
            actor: rules.parse_orders(
                state, actor, rules.scripted_orders(state, actor, seed).splitlines()
            )
            for actor in phase.actors
        }
        state = rules.resolve(state, orders).state


@pytest.mark.parametrize(
    "ruleset,players", [("werewolf", 9), ("werewolf", 14), ("infiltration", 10)]
)
def test_every_order_of_a_form_filled_in_literally_is_accepted(ruleset, players):
    checked = 0
    for rules, state, phase in phases_of_a_game(ruleset, players, seed="forms"):
        for actor in phase.actors:
            form = order_form("g1", phase, actor, "tok", "soon")
            for spec in form["orders"] if form else ():
                choices = spec["choices"] or [None]
                for choice in choices[:3]:
                    order = literally_filled(spec["line"], choice)
                    assert "<" not in order, order
                    rules.parse_orders(state, actor, [order])  # raises when refused
                    checked += 1
    assert checked > 20


def test_alternatives_become_one_choice_and_repeats_are_written_once():
    assert form_line("VOTE <player>|NO LYNCH|NO REDS LEFT", ("Ann", "NO LYNCH")) == "VOTE <choice>"
    assert form_line("VOTE <defendant> or VOTE NO LYNCH", ("Ann", "NO LYNCH")) == "VOTE <choice>"
    assert form_line("ATTACK <name>, <name> ...", ("Ann",)) == "ATTACK <name>"
    assert form_line("NOMINATE <player>", ("Ann",)) == "NOMINATE <player>"


def test_hints_and_choices_are_lines_of_their_own_that_fit():
    names = [f"Name{i:02d}abcdefghijklmno" for i in range(48)] + ["NO LYNCH", "NO REDS LEFT"]
    lines = choice_lines(names).split("\n") + comment_lines("a hint " * 30).split("\n")
    assert all(line.startswith("#") and len(line) <= WIDTH for line in lines)
    assert "NO REDS LEFT" in lines[len(choice_lines(names).split("\n")) - 1]
