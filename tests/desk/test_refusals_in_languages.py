"""A refused block's problems are worded in the reader's language: the engine's and the
shell's refusals are catalog messages (domain `refusals`) with named values, and an English
reader reads them as before (docs/design.md: Refusals in every language)."""

from __future__ import annotations

import ast
import re

import pytest
from babel.messages.pofile import read_po

from engine.errors import IllegalOrderError, OrderError, OrderSyntaxError, Wording
from engine.infiltration.validity.words import GRAMMAR_WORDING
from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.record_parts import RosterPlayer
from pbp.game.resolution import resolve_phase
from pbp.game.stored import load
from pbp.mail.ingest.inbound import parse_inbound
from pbp.game.options import OPTIONS
from pbp.mail.wrapping import WIDTH, wrap_body
from pbp.release import templates_folder
from pbp.render.renderer import Renderer
from pbp.render.verdicts import Refused
from pbp.settings import Settings
from tests.desk.test_desk import mail
from tests.fixtures.clocks import Clock
from tests.fixtures.harness import ToyModerator
from tests.render.test_no_english_left import english_left

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
LANGUAGES = ("de", "es")
# A value for each field a refusal's template names: names and rooms as players write
# them, order keywords, and a phase in English words (worded by the glossary).
VALUES: dict[str, object] = {
    "phase": "Night 1",
    "hint": Wording(" Did you mean %(word)s?", {"word": "VOTE"}),
    "keyword": "VOTE",
    "expected": "NOMINATE",
    "word": "VOTE",
    "words": "NOMINATE",
    "keywords": "MOVE, STAY",
    "offered": "KILL",
    "choices": "VOTE, ALL",
    "terminals": "SEER, GAS",
    "feature": "SEER",
    "room": "D-4",
    "floor": "C",
    "text": "Zed",
    "name": "Bruno",
    "target": "Bruno",
    "names": "Bruno, Chloe",
    "limit": 500,
    "facts": 7,
    "most": 6,
    "codes": 2,
    # The sign-up problems' and the Validity check grammar's fields.
    "problem": Wording("the end of the statement"),
    "note": Wording(""),
    "grammar": GRAMMAR_WORDING,
    "written": "Bob IS DEAD",
    "found": '"Zed"',
    "what": Wording("a fact"),
    "where": Wording(' after "%(after)s"', {"after": "Bob IS"}),
    "after": "Bob IS",
    "rules": "  statement := fact",
    "rule": Wording(
        "use 1-20 letters of one alphabet, digits, '_' or '-', starting with a letter "
        "(e.g. José, Иван, 陈伟, Mary_Ann)"
    ),
    "reading": Wording("reads as a room; pick a name that is not a room"),
    "also": Wording(" (as %(earlier)r)", {"earlier": "Bruno"}),
    "earlier": "Bruno",
    "odd": "!",
    "code": "200B",
    "scripts": Wording("%(first)s and %(last)s", {"first": "Cyrillic", "last": "Latin"}),
    "first": "Cyrillic",
    "last": "Latin",
    "zone": "Mars/Base",
    "game_id": "ww1",
    "languages": "de, en, es",
    "language": "xx",
    "example": "es",
    "forum_name": "alice_k",
    # The problems of a mail's blocks (pbp.mail.blocks).
    "begin": "BEGIN ORDERS ww1",
    "count": 2,
    "kind": "ORDERS",
    "line": 3,
    "end": 9,
    "stop": 5,
    "blocks": 7,
    "unread": 2,
    "id": "N1",
}
# What the host types, which a sentence about an option names: its name, a value.
TYPED = re.compile(r"\b(?:" + "|".join(OPTIONS) + r")\b|(?<=off, )dead")
# Any other field (the desk's sentences: a game, an option's value, a count): a name.
OTHER = "Zed"


def refusal_templates() -> list[str]:
    """Every refusal template the code raises (the catalog extracted from engine/ and pbp/),
    without the shell's own lines around them."""
    with (templates_folder() / "locale" / "refusals.pot").open("rb") as source:
        catalog = read_po(source)
    return [m.id for m in catalog if isinstance(m.id, str) and m.id and "%(message)s" not in m.id]


def bad_orders(errors: list[OrderError]) -> Refused:
    """The refusal of a block with `errors`, each placed on a line of the mail, as the desk
    makes it (pbp.game.judging.block_judge)."""
    placed = [error.at(3 + index, "Zed") for index, error in enumerate(errors)]
    return Refused(
        "bad_orders",
        errors=tuple(str(e) for e in placed),
        placed=tuple(placed),
        grammar=("VOTE <player>",),
        phase_words="Day 1",
        in_thread=False,
        block_game="ww1",
        block_phase="D1",
    )


def sent_lines(body: str) -> list[str]:
    return wrap_body(body).split("\n")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_the_code_raises_is_worded_in_each_language(language):
    templates = refusal_templates()
    assert len(templates) > 60  # the engine's and the shell's, both rulesets
    errors: list[OrderError] = []
    for template in templates:
        fields = re.findall(r"%\((\w+)\)[sr]", template)
        error = IllegalOrderError.of(template, **{f: VALUES.get(f, OTHER) for f in fields})
        errors.append(
            IllegalOrderError(error.wording, earlier=2) if "{earlier}" in template else error
        )
    for error in errors:
        body = Renderer(language=language).word(bad_orders([error]))
        body = TYPED.sub("", body)  # an option's name and value, as the host types them
        assert not english_left(body), (error.wording.template, english_left(body))
        too_long = [line for line in sent_lines(body) if len(line) > WIDTH]
        assert not too_long, too_long
        assert "{earlier}" not in body and "%(" not in body


def test_an_english_reader_reads_the_refusals_as_they_were():
    errors = [
        OrderSyntaxError.of(
            'unknown order "%(word)s".%(hint)s',
            word="VOTR",
            hint=Wording(" Did you mean %(word)s?", {"word": "VOTE"}),
        ),
        IllegalOrderError.of("%(target)s is dead; nominate a living player.", target="Bruno"),
    ]
    body = Renderer().word(bad_orders(errors))
    assert 'Line 3: "Zed" — unknown order "VOTR". Did you mean VOTE?' in body
    assert 'Line 4: "Zed" — Bruno is dead; nominate a living player.' in body
    german = Renderer(language="de").word(bad_orders(errors))
    assert 'Zeile 3: "Zed" — unbekannter Befehl "VOTR". Meintest du VOTE?' in german
    assert 'Zeile 4: "Zed" — Bruno ist tot; nominiere einen lebenden Mitspieler.' in german


def _receipt(moderator, desk, game_id, name, lines, number):
    game = load(moderator, game_id)
    before = len(game.file.outbox.all())
    text = "\n".join(
        [
            f"BEGIN ORDERS {game_id} {game.phase.id}",
            f"TOKEN: {game.token(name)}",
            *lines,
            "END ORDERS",
        ]
    )
    raw = mail(text, sender=f"{name.lower()}@example.org", message_id=f"<r{number}@x>")
    assert desk.receive(parse_inbound(raw, ("pbp@games.example",), 10**6)) == "rejected"
    (row,) = [
        row
        for row in load(moderator, game_id).file.outbox.all()[before:]
        if row["kind"] == "rejection"
    ]
    return str(row["body"])


def _game(moderator, ruleset, game_id, languages):
    roster = [
        RosterPlayer(n, f"{n.lower()}@example.org", language=languages.get(n, "en")) for n in NAMES
    ]
    create_game(moderator, ruleset, roster, seed="r", game_id=game_id)
    while not any(load(moderator, game_id).phase.grammar.values()):  # Werewolf's night 0
        resolve_phase(moderator, game_id)
    return load(moderator, game_id)


# Blocks each refused in another way: a line that is no order, an order of another phase,
# a WITHDRAW with nothing to take back, a WITHDRAW of no order, a name of nobody.
BLOCKS = {
    "werewolf": [
        ["FROB Bruno"],
        ["VOTE Bruno"],
        ["NOMINATE Zed"],
        ["NOMINATE Bruno Chloe"],
        ["WITHDRAW {keyword}"],
        ["WITHDRAW FROB"],
        ["NOMINATE Bruno", "NOMINATE Chloe"],
    ],
    "infiltration": [
        ["FROB"],
        ["MOVE D-4"],
        ["CLASS WIZARD"],
        ["WITHDRAW CLASS"],
        ["CLASS HACKER", "CLASS SNEAKER"],
    ],
}


@pytest.mark.parametrize("ruleset", sorted(BLOCKS))
def test_german_and_spanish_players_read_their_refusals_in_their_language(moderator, ruleset):
    game_id = ruleset[:2] + "1"
    # who gives orders in the first phase, from a twin game everyone reads in English
    twin = _game(moderator, ruleset, ruleset[:2] + "0", {})
    givers = [n for n in NAMES if twin.phase.grammar.get(n)][:3]
    by_language = dict(zip(("en", "de", "es"), givers))
    game = _game(moderator, ruleset, game_id, {n: code for code, n in by_language.items()})
    assert [n for n in NAMES if game.phase.grammar.get(n)][:3] == givers
    desk = Desk(moderator)
    number = 0
    for language, name in by_language.items():
        keyword = game.phase.grammar[name][0].keyword
        for block in BLOCKS[ruleset]:
            number += 1
            lines = [line.format(keyword=keyword) for line in block]
            body = _receipt(moderator, desk, game_id, name, lines, number)
            if language == "en":
                assert "Line " in body
                continue
            # what the player wrote is quoted back as written: leave it out before reading
            words = body.replace(lines[-1], " ")
            assert not english_left(words), (lines, english_left(words))
            assert all(len(line) <= WIDTH for line in sent_lines(body))
    assert number == 3 * len(BLOCKS[ruleset])


# Refusals still put together in English, each with its reason: none (the Validity check's
# grammar errors are Wordings nested in one another, engine.infiltration.validity).
STILL_ENGLISH: set[tuple[str, str]] = set()
REFUSERS = {"IllegalOrderError", "OrderSyntaxError", "Wording"}


def _refuser(call: ast.Call) -> str | None:
    """The refusal a call makes (`IllegalOrderError(…)`, `OrderSyntaxError.of(…)`,
    `Wording(…)`), or None."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "of":
        func = func.value
    return func.id if isinstance(func, ast.Name) and func.id in REFUSERS else None


def test_every_refusal_in_the_code_is_a_template_the_catalog_can_hold():
    root = templates_folder().parent
    glued = []
    for path in sorted([*(root / "engine").rglob("*.py"), *(root / "pbp").rglob("*.py")]):
        where = str(path.relative_to(root))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            refuser = _refuser(node) if isinstance(node, ast.Call) else None
            if refuser and node.args and isinstance(node.args[0], (ast.JoinedStr, ast.BinOp)):
                if (where, refuser) not in STILL_ENGLISH:
                    glued.append(f"{where}:{node.lineno}")
    assert not glued, glued
