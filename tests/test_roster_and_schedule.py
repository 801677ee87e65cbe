"""The roster rules (docs/design.md: Command line) and deadline schedules."""

from __future__ import annotations

from datetime import timedelta

import pytest

import engine
from engine.core import PhaseKind

from pbp.errors import UserError
from pbp.game.roster_file import parse_npc, parse_roster
from pbp.schedule import parse_schedule, phase_duration
from pbp.timezones import parse_duration


def test_a_roster_with_header_and_optional_columns():
    roster = parse_roster(
        "name,email,timezone,forum_name\nAlice,Alice@Example.org,Europe/Berlin,al\nBruno,b@x.org\n"
    )
    assert [(e.name, e.email, e.timezone, e.forum_name) for e in roster] == [
        ("Alice", "alice@example.org", "Europe/Berlin", "al"),
        ("Bruno", "b@x.org", "", ""),
    ]


@pytest.mark.parametrize(
    "csv_text, reason",
    [
        ("Alice,a@x.org\nalice,b@x.org\n", "used twice"),
        ("Alice,a@x.org\nBruno,a@x.org\n", "appears twice"),
        ("A-4,a@x.org\n", "reads as a room"),
        ("b4,a@x.org\n", "reads as a room"),
        ("H,a@x.org\n", "floor letter"),
        ("Vote,a@x.org\n", "order keyword"),
        ("1abc,a@x.org\n", "not a valid name"),
        ("Alice,not-an-address\n", "not an email address"),
        ("Alice,Bob <a@x.org>\n", "not an email address"),
        ("", "no players"),
        ("player,email\nAlice,a@x.org\n", "neither a player nor the header"),
        ("email,name\na@x.org,Alice\n", "neither a player nor the header"),
    ],
)
def test_bad_rosters_are_refused_with_the_reason(csv_text, reason):
    with pytest.raises(UserError, match=reason):
        parse_roster(csv_text)


def test_npc_specs():
    card = engine.ruleset("infiltration").card
    npc = parse_npc("Raiden:Renegade:Neutral", card)
    assert (npc.name, npc.npc_class, npc.team) == ("Raiden", "renegade", "neutral")
    for bad in (
        "Raiden:renegade",
        "Raiden:pilot:green",
        "Raiden:warrior:blue",
        "A-1:warrior:green",
    ):
        with pytest.raises(UserError):
            parse_npc(bad, card)


def test_durations():
    assert parse_duration("90s") == timedelta(seconds=90)
    assert parse_duration("10m") == timedelta(minutes=10)
    assert parse_duration("2h") == timedelta(hours=2)
    assert parse_duration("1d12h") == timedelta(hours=36)
    for bad in ("", "10", "5x", "0s", "h"):
        with pytest.raises(UserError):
            parse_duration(bad)


INFILTRATION = engine.ruleset("infiltration").card.phase_kinds
WEREWOLF = engine.ruleset("werewolf").card.phase_kinds


def test_schedules_default_per_kind_and_override():
    """Unnamed kinds keep the length the ruleset's card gives them; `default=` sets every
    kind not named."""
    plan = parse_schedule("class=1h, movement=30m", INFILTRATION)
    assert phase_duration(plan, "class") == timedelta(hours=1)
    assert phase_duration(plan, "movement") == timedelta(minutes=30)
    assert phase_duration(plan, "decision") == timedelta(hours=48)
    assert phase_duration(plan, "unheard-of") == timedelta(hours=24)
    every = parse_schedule("default=5s,decision=7s", INFILTRATION)
    assert phase_duration(every, "night") == timedelta(seconds=5)
    assert phase_duration(every, "decision") == timedelta(seconds=7)
    with pytest.raises(UserError, match="KIND=DURATION"):
        parse_schedule("movement", INFILTRATION)


def test_a_ruleset_the_shell_never_heard_of_gets_its_default_lengths_from_its_card():
    """The shell keeps no table of phase kinds: a new ruleset's kinds and lengths are its
    card's, and a schedule names only those (and `default`, for a kind it does not know)."""
    kinds = (PhaseKind("council", "each council", "36h"), PhaseKind("hunt", "each hunt"))
    assert parse_schedule(None, kinds) == {"council": "36h", "hunt": "24h", "default": "24h"}
    assert parse_schedule("hunt=2h", kinds) == {"council": "36h", "hunt": "2h", "default": "24h"}
    with pytest.raises(UserError, match="its kinds are council, hunt"):
        parse_schedule("decision=2h", kinds)


def test_a_stored_schedule_keeps_its_lengths():
    """A game stores its schedule when it starts: one written by an older pbp, with a
    length for every ruleset's kinds, still gives each phase its stored length, whatever
    the cards say now."""
    stored = {
        "class": "24h",
        "movement": "24h",
        "decision": "48h",
        "night": "24h",
        "witch": "12h",
        "nominate": "24h",
        "runoff": "12h",
        "vote": "48h",
        "default": "24h",
    }
    assert phase_duration(stored, "decision") == timedelta(hours=48)
    assert phase_duration(stored, "night0") == timedelta(hours=24)
    assert phase_duration({**stored, "decision": "3h"}, "decision") == timedelta(hours=3)


def test_a_schedule_naming_no_phase_kind_of_the_ruleset_is_refused(tmp_path, monkeypatch, capsys):
    """`--schedule movment=2h` (a typo) would otherwise leave movement phases their default
    length without a word; pbp new-game refuses it in one line and starts nothing."""
    from pbp.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "name,email\n"
        + "".join(
            f"{n},{n.lower()}@example.org\n" for n in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")
        )
    )
    capsys.readouterr()
    assert (
        main(
            [
                "new-game",
                "--ruleset",
                "infiltration",
                "--roster",
                str(roster),
                "--schedule",
                "movment=2h",
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'movment'" in err and "class, movement, decision" in err
    assert not list((tmp_path / "pbp-data" / "games").iterdir())
    assert parse_schedule("night0=1h,witch=10m", WEREWOLF)["witch"] == "10m"
