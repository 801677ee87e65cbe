"""Infiltration's ruleset card (engine.core.RulesetCard): the one order table
(engine.infiltration.order_table), used by HELP and by the order forms
(engine.infiltration.orders.grammar), the phase kinds and their words, and the words a name
may not be (rules: Order grammar)."""

from __future__ import annotations

from engine.errors import Wording

from typing import Any, Mapping, Sequence

from engine.core import (
    BalanceStudy,
    PhaseKind,
    PublicCharacter,
    RulesetCard,
    SecretFields,
    listed_characters,
)
from engine.errors import Wording
from engine.keyword_names import every_name
from engine.infiltration.drawing import BOARD_WORDS, board_text
from engine.infiltration.map_svg import board_svg
from engine.infiltration.keyword_names import KEYWORD_NAMES
from engine.infiltration.order_table import ORDER_TABLE
from engine.infiltration.orders.values import KEYWORDS, Vote
from engine.infiltration.rooms import FLOORS, SPECIALS, TERMINALS, parse_room
from engine.infiltration.state import CLASSES, NEUTRAL, PLAYER_CLASSES, RED, TEAMS
from engine.infiltration.validity.words import GRAMMAR_WORDING
from engine.infiltration.variants import SETUP_VARIANTS

# Words of the orders and of validity statements beyond the order keywords and features.
_GRAMMAR_WORDS = """
    warrior hacker sneaker renegade engineer no lynch reds left guard
    is in was on turn alive dead has stinger visited attacked used terminal hacked destroyed
    door open and or not general
"""


def public_choice(order: object) -> str | None:
    """The lynch vote is public once accepted (rules: Order grammar)."""
    return order.choice if isinstance(order, Vote) else None


def _reads_as(name: str) -> Wording | None:
    if parse_room(name) is not None:
        return Wording("reads as a room; pick a name that is not a room")
    if name.upper() in FLOORS:
        return Wording("is a floor letter; pick a longer name")
    return None


# The classes (rules/infiltration.md: Cast and setup, Combat), as `pbp rules` lists them.
CLASS_LINES = (
    ("warrior", "Greens (chosen in T0) and every Red", "fights at priority 3; the default class"),
    ("hacker", "Greens (chosen in T0)", "sees hacked terminals and may RESTORE them; priority 2"),
    (
        "sneaker",
        "Greens (chosen in T0)",
        "guards ignore it and raise no Alert for it; uses terminals under Alert; priority 2",
    ),
    (
        "renegade",
        "NPCs only",
        "guards ignore it like a Sneaker; uses terminals under Alert; priority 4",
    ),
    ("engineer", "NPCs only", "sees hacked terminals and may RESTORE and REPAIR them; priority 1"),
)


def character_summary(view: Mapping[str, Any]) -> tuple[Wording, ...]:
    """The host's lines about one character, from its own view (engine.core.RulesetCard);
    each a Wording (`str()` its English, the desk words it in the host's language)."""
    me = view["me"]
    where = (
        Wording("in %(room)s", {"room": me["room"]}) if me.get("room") else Wording("nowhere yet")
    )
    facts = {
        "team": str(me["team"]).capitalize(),
        "class": str(me["class"]).capitalize(),
        "where": where,
    }
    first = (
        Wording("%(team)s %(class)s, alive, %(where)s", facts)
        if me["alive"]
        else Wording("%(team)s %(class)s, dead, %(where)s", facts)
    )
    code = {"code": me.get("code") or Wording("unknown")}
    stinger = (
        Wording("Stinger: yes; code: %(code)s", code)
        if me.get("stinger")
        else Wording("Stinger: no; code: %(code)s", code)
    )
    lines = [first, stinger]
    if me.get("teammates"):
        npcs = set(me.get("teammate_npcs") or ())
        names = ", ".join(f"{n} (NPC)" if n in npcs else n for n in me["teammates"])
        lines.append(Wording("Fellow Reds: %(names)s", {"names": names}))
    return tuple(lines)


_STEPS = {"class": "class choice", "movement": "movement", "decision": "decision"}


def phase_words(phase_id: str) -> str:
    """`Turn 0 — class choice`, `Turn 1 — movement`, `Turn 1 — decision` (any other id is
    returned as it is)."""
    number, _, step = phase_id[1:].partition("-")
    if phase_id.startswith("T") and number.isdigit() and step in _STEPS:
        return f"Turn {number} — {_STEPS[step]}"
    return phase_id


# Where a view holds what a public post must not tell (engine.core.SecretFields): a
# character's team and class, the rooms (anything that reads as one: a room, a guard's
# destination, the rooms one has seen), and the General's door code.
SECRET_FIELDS = SecretFields(
    personal=frozenset({"team", "class"}),
    places=frozenset({"room", "here", "locks", "destination", "rooms"}),
    secrets=frozenset({"code"}),
    place_form=parse_room,
)


def public_roster(view: Mapping[str, Any]) -> tuple[PublicCharacter, ...]:
    """Every character of the public view, a dead one with the turn it died in."""
    turns = {
        str(dead["name"]): dead["turn"]
        for dead in view.get("dead", [])
        if dead.get("turn") is not None
    }
    return listed_characters(
        view, lambda entry: f"Turn {turns[entry['name']]}" if entry["name"] in turns else ""
    )


def setup_name(seats: Sequence[tuple[str, str]]) -> str:
    """A setup by its number of Reds (`pbp stats`)."""
    return f"{sum(1 for _role, team in seats if team == RED)} red"


CARD = RulesetCard(
    public_choice=public_choice,
    logged_orders=("USE", "HACK", "DESTROY", "RESTORE", "REPAIR", "ATTACK"),
    game_id_prefix="inf",
    # A day for most phases, two for the decisions, where players talk things over.
    phase_kinds=(
        PhaseKind("class", "class choice (turn 0)", "24h"),
        PhaseKind("movement", "each movement phase", "24h"),
        PhaseKind("decision", "each decision phase", "48h"),
    ),
    orders=ORDER_TABLE,
    argument_grammars=(("USE VALIDITY <statement>", GRAMMAR_WORDING),),
    reserved_words=frozenset(
        word.upper()
        for word in (
            *KEYWORDS,
            *TERMINALS,
            *" ".join(SPECIALS).split(),
            *_GRAMMAR_WORDS.split(),
            "UNVOTE",
            *every_name(KEYWORD_NAMES),
        )
    ),
    reserved_form=_reads_as,
    npc_kinds=CLASSES,
    choosing_kind="class",
    public_orders=("VOTE",),
    take_back_words=(("UNVOTE", "VOTE"),),  # a forum post's way of taking the vote back
    keyword_names=KEYWORD_NAMES,
    roles=CLASS_LINES,
    character_summary=character_summary,
    secret_fields=SECRET_FIELDS,
    phase_words=phase_words,
    side_names=(("green", "the Greens"), ("red", "the Reds")),
    victory_paths=(
        ("ghost-destroyed", "the Greens destroyed Metal Gear GHOST"),
        ("greens-too-few", "too few Greens are left to finish the mission"),
        ("draw-too-few", "no Red is left, but too few Greens remain to finish the mission"),
        ("no-reds-left", "every living player agreed that no Reds are left, and they were right"),
        (
            "no-reds-left-wrong",
            "every living player agreed that no Reds are left, but a Red was still alive",
        ),
        ("draw-turn-limit", "the turn limit was reached"),
    ),
    npc_teams=TEAMS,
    npc_explained=(*(kind for kind in CLASSES if kind not in PLAYER_CLASSES), NEUTRAL),
    setup_files=("map",),
    demo_players=8,
    demo_seed="12",
    setup_name=setup_name,
    public_roster=public_roster,
    board_text=board_text,
    texts=BOARD_WORDS,
    board_svg=board_svg,
    # docs/balance.md: the default map from 10 to 48 players; no human record calibrates it
    balance_study=BalanceStudy(figure_sizes=(10, 12, 16, 20, 24, 32, 40, 48), figure_games=200),
    setup_variants=SETUP_VARIANTS,
    # Bumped by a change to the rulings or the state's shape
    # (tests/upgrades/test_rules_versions.py).
    rules_version=1,
)
