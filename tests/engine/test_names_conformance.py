"""The name rule, numbered like the rules' conformance suites (docs/design.md: Command line;
docs/rules/*.md: names). One scenario per test; the rule it checks is quoted in its
docstring. Numbers are stable."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.core import OrderBlockError
from engine import name_problem
from engine.names import match_name
from pbp.errors import UserError
from pbp.game.roster_file import parse_roster
from tests.infiltration.scenario import make_state, parse, person
from tests.werewolf.werewolf_helpers import RULES, game, step


def werewolf_day(*names: str):
    """A vanilla Werewolf game of `names` in D1-nominate."""
    state = game({name: "villager" for name in names[:-1]} | {names[-1]: "werewolf"})
    return step(state).state


def test_n01_any_alphabet():
    """ "Player and NPC names are 1–20 letters (any alphabet …), digits, `_` or `-`, start
    with a letter.\""""
    for name in (
        "José",
        "Zoë",
        "Siobhán",
        "Иван",
        "Δημήτρης",
        "陈伟",
        "さくら",
        "Mary_Ann",
        "R2-D2",
        "x" * 20,
    ):
        assert name_problem(name) is None, name
    for name in ("1abc", "_Ann", "Mary Ann", "Jo.se", "Ann!", "x" * 21, ""):
        assert "not a valid name" in name_problem(name), name


def test_n02_one_script_per_name():
    """ "One script per name: no Latin mixed with Cyrillic look-alikes.\""""
    look_alike = "Ivаn"  # the "а" is Cyrillic
    problem = name_problem(look_alike)
    assert "mixes letters of the Cyrillic and Latin scripts" in problem


def test_n03_unique_ignoring_case_and_accents():
    """ "Names are unique once case and accents are ignored.\""""
    with pytest.raises(UserError, match=r"'Jose' is used twice \(as 'José'\)"):
        parse_roster("José,j@x.org\nJose,k@x.org\n")
    assert [e.name for e in parse_roster("Иван,i@x.org\nIvan,v@x.org\n")] == ["Иван", "Ivan"]


def test_n04_not_a_room_floor_or_keyword():
    """ "… and are not a room in any accepted form, a floor letter, or a keyword of either
    ruleset's grammar.\""""
    assert "reads as a room" in name_problem("b4")
    assert "floor letter" in name_problem("H")
    assert "order keyword" in name_problem("Vote")
    assert "order keyword" in name_problem("Sée")  # a keyword with an accent is still the keyword


def test_n05_the_roster_check_lists_every_problem_at_once():
    """ "`pbp new-game` refuses any other roster, listing every problem.\""""
    text = (
        "name,email,timezone\nAlice,a@x.org,Europe/Londn\nVote,v@x.org,\nMary Ann,m@x.org,\n"
        "Bruno,not-an-email,\nalice,b@x.org,\n"
    )
    with pytest.raises(UserError) as refused:
        parse_roster(text)
    message = str(refused.value)
    assert message.startswith("roster has 5 problems")
    for expected in (
        "row 2: Unknown time zone 'Europe/Londn'",
        "row 3: 'Vote' is an order keyword",
        "row 4: 'Mary Ann' is not a valid name",
        "row 5: 'not-an-email' is not an email address",
        "'alice' is used twice",
    ):
        assert expected in message


def test_n06_orders_match_names_ignoring_case_and_accents():
    """ "Orders match names ignoring case and accents (`VOTE jose` names José).\""""
    state = werewolf_day("José", "Zoë", "Bruno", "Wolf")
    orders = parse_werewolf(state, "Bruno", "NOMINATE jose")
    assert str(orders[0]) == "NOMINATE José"
    assert str(parse_werewolf(state, "Bruno", "nominate ZOE")[0]) == "NOMINATE Zoë"


def test_n07_never_across_scripts():
    """ "… never across scripts.\""""
    assert match_name("Ivan", ["Иван"]) is None
    state = werewolf_day("Иван", "Bruno", "Chen", "Wolf")
    with pytest.raises(OrderBlockError, match='"Ivan" is not a player'):
        parse_werewolf(state, "Bruno", "NOMINATE Ivan")
    assert str(parse_werewolf(state, "Bruno", "NOMINATE иван")[0]) == "NOMINATE Иван"


def test_n08_a_trailing_full_stop_is_tolerated():
    """A name followed by a sentence's full stop (`VOTE Ivan.`) names that player."""
    state = werewolf_day("Ivan", "Bruno", "Chen", "Wolf")
    assert str(parse_werewolf(state, "Bruno", "NOMINATE Ivan.")[0]) == "NOMINATE Ivan"


def test_n09_emphasis_of_rich_text_clients_is_tolerated():
    """A name wrapped in `*` or `_` by a rich-text mail client names that player, in both
    rulesets."""
    state = werewolf_day("Ivan", "Bruno", "Chen", "Wolf")
    assert str(parse_werewolf(state, "Bruno", "NOMINATE *Ivan*")[0]) == "NOMINATE Ivan"
    assert str(parse_werewolf(state, "Bruno", "NOMINATE _ivan_")[0]) == "NOMINATE Ivan"
    infiltration = make_state(person("José", "A-1"), person("Bruno", "A-2"), step="decision")
    assert str(parse(infiltration, "Bruno", "VOTE *jose.*")[0]) == "VOTE José"


def test_n10_init_makes_the_inbox_maildir(tmp_path):
    """`pbp init` makes the Maildir the embedded transport reads mail from."""
    done = subprocess.run(
        [sys.executable, "-m", "pbp", "init"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    for part in ("new", "cur", "tmp"):
        assert (tmp_path / "pbp-data" / "mail" / "inbox" / part).is_dir()
    assert "mail/inbox" in done.stdout


def parse_werewolf(state, player, line):
    return RULES.parse_orders(state, player, [line])
