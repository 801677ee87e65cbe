"""The HELP mail's order tables (docs/design.md: Order mail format —
"HELP (the rules summary and the grammar)"): every order of the ruleset, the current
phase's orders marked, and Infiltration's USE VALIDITY statement grammar."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core import PlayerSpec
from engine.infiltration.validity.words import GRAMMAR_HELP
from engine.seat_names import player_names
from pbp.desk.player_commands import help_mail
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.desk.help import MARK_NOW, help_facts, order_key
from pbp.rulesets import load_ruleset
from pbp.game.record_parts import Npc, RosterPlayer

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "syntax, key",
    [
        ("USE SEER <player>", "USE SEER"),
        ("VOTE <player>|NO LYNCH|NO REDS LEFT", "VOTE"),
        ("ATTACK <name>, <name> ...", "ATTACK"),
        ("HACK", "HACK"),
        ("USE COMMANDER <floor>=<room> ...", "USE COMMANDER"),
        ("VOTE <defendant> or VOTE NO LYNCH", "VOTE"),
        ("KILL <player>", "KILL"),
    ],
)
def test_an_orders_key_is_its_leading_keywords(syntax, key):
    assert order_key(syntax) == key


def _every_offered_order(ruleset: str, players: int, seeds, options=None, max_phases: int = 40):
    """(phase kind, order key) of every order the engine offers any actor in scripted games."""
    rules = engine.ruleset(ruleset)
    offered = set()
    for seed in seeds:
        state = rules.new_game([PlayerSpec(n) for n in player_names(players)], seed, options or {})
        for _ in range(max_phases):
            phase = rules.phase(state)
            if phase is None:
                break
            for actor in phase.actors:
                offered.update(
                    (phase.kind, order_key(spec.syntax)) for spec in phase.grammar.get(actor, ())
                )
            orders = {
                actor: rules.parse_orders(
                    state, actor, rules.scripted_orders(state, actor, seed).splitlines()
                )
                for actor in phase.actors
            }
            state = rules.resolve(state, orders).state
    return rules, offered


@pytest.mark.parametrize(
    "ruleset, players, options",
    [
        ("infiltration", 8, None),
        ("werewolf", 11, {"setup_11": "romantic"}),
        ("werewolf", 11, {"setup_11": "succubus"}),
    ],
)
def test_the_table_lists_every_order_the_engine_offers(ruleset, players, options):
    """Cross-check against the engine: an order a player is offered in any phase of a few
    scripted games has its row in the HELP table, for that phase kind."""
    rules, offered = _every_offered_order(
        ruleset, players, [f"help/{i}" for i in range(4)], options
    )
    rows = rules.card.orders
    listed = {(kind, order_key(row.order)) for row in rows for kind in row.kinds}
    assert offered and offered <= listed, sorted(offered - listed)


def test_a_host_role_is_listed_like_a_built_in_one():
    """docs/design.md: Extensibility — the Vampire from examples/roles/vampire.py."""
    rules = load_ruleset("werewolf", ("examples/roles/vampire.py",), str(REPO))
    rows = rules.card.orders
    assert any(
        row.order == "DRAIN <player>" and row.phases == "Nn" and "Vampire" in row.who
        for row in rows
    )


def _marked(lines):
    return [line for line in lines if line.startswith(MARK_NOW)]


def test_only_the_current_phases_own_orders_are_marked(moderator):
    game = create_game(
        moderator,
        "infiltration",
        [RosterPlayer(n, f"{n.lower()}@x.org") for n in player_names(6)],
        seed="9",
        game_id="inf1",
    )
    greens = [n for n in game.phase.actors]
    facts = help_facts(game.rules, game.phase, greens[0])["orders"]
    assert len([line for line in facts["table"] if not line.startswith("    ")]) == len(
        game.rules.card.orders
    )
    (marked,) = _marked(facts["table"])
    assert "T0-class" in marked and "CLASS <class>" in marked
    assert any("Tn-movement" in line and "MOVE <room>" in line for line in facts["table"])
    assert [(g["order"], str(g["text"])) for g in facts["grammars"]] == [
        ("USE VALIDITY <statement>", GRAMMAR_HELP)
    ]
    # A player with no orders now has nothing marked (Reds choose no class)
    reds = [n for n in load(moderator, "inf1").record.tokens if n not in game.phase.actors]
    for red in reds:
        assert _marked(help_facts(game.rules, game.phase, red)["orders"]["table"]) == []


def test_a_decision_marks_the_terminal_vote_and_attack_the_player_has():
    rules = engine.ruleset("infiltration")
    state = rules.new_game([PlayerSpec(n) for n in player_names(8)], "mark", {})
    while rules.phase(state).kind != "decision":
        phase = rules.phase(state)
        state = rules.resolve(
            state,
            {
                a: rules.parse_orders(state, a, rules.scripted_orders(state, a, 1).splitlines())
                for a in phase.actors
            },
        ).state
    phase = rules.phase(state)
    for actor in phase.actors:
        keys = {order_key(spec.syntax) for spec in phase.grammar[actor]}
        marked = _marked(help_facts(rules, phase, actor)["orders"]["table"])
        assert {line.split("  ")[1].strip() for line in marked} == {
            row.order
            for row in rules.card.orders
            if order_key(row.order) in keys and "decision" in row.kinds
        }
        assert all("Tn-decision" in line for line in marked)


def test_the_help_mail_holds_summary_table_and_statement_grammar(moderator):
    roster = [RosterPlayer(n, f"{n.lower()}@x.org") for n in player_names(8)]
    game = create_game(moderator, "werewolf", roster, seed="5", game_id="ww1")
    name = roster[0].name
    text = help_mail(moderator, load(moderator, "ww1"), name, None).body
    assert "WEREWOLF: THE RULES IN SHORT" in text
    assert "Every order of Werewolf, phase by phase" in text
    for order in (
        "NOMINATE <player>",
        "VOTE <defendant> or VOTE NO LYNCH",
        "KILL <player>",
        "SEE <player>",
        "POISON <player>",
    ):
        assert order in text
    assert "validity" not in text.lower()  # Werewolf has no statement grammar
    assert game.phase.id == "N0"


@pytest.mark.parametrize(
    "npcs, said, unsaid",
    [
        (
            (Npc("Raiden", "renegade", "neutral"), Npc("Otacon", "engineer", "green")),
            (
                "CHARACTERS PLAYED BY THE HOST (NPCs): Raiden, Otacon",
                "Renegade (an NPC class in this game)",
                "Engineer (an NPC class in this game)",
                "Neutral (an NPC team in this game)",
            ),
            (),
        ),
        (
            (Npc("Vamp", "warrior", "red"),),
            ("CHARACTERS PLAYED BY THE HOST (NPCs): Vamp",),
            ("Renegade (", "Engineer (", "Neutral (", "Red NPC"),
        ),
        ((), (), ("CHARACTERS PLAYED BY THE HOST", "Renegade (", "Engineer (")),
    ],
)
def test_the_help_explains_the_npc_classes_and_teams_that_are_in_the_game(
    moderator, npcs, said, unsaid
):
    """rules/infiltration.md, Cast and setup: "Player help explains both [Renegade and
    Engineer] wherever an NPC of that class is in the game"; a Neutral NPC is explained
    too, and a Red NPC's team is never told (only the Reds learn it)."""
    roster = [RosterPlayer(n, f"{n.lower()}@x.org") for n in player_names(6)]
    create_game(moderator, "infiltration", roster, npcs, seed="4", game_id="inf1")
    text = help_mail(moderator, load(moderator, "inf1"), roster[0].name, None).body
    assert all(words in text for words in said)
    assert not any(words in text for words in unsaid)
