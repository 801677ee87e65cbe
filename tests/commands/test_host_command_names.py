"""Host commands name players as orders do (docs/design.md: Command line): case and accents
ignored, never across scripts, and a near miss answered with the name it likely meant. A
host who types `jose` in a terminal means José, as a player's `VOTE jose` does."""

from __future__ import annotations

import pytest

from tests.commands.test_cli_commands import Site

NAMES = ("José", "Иван", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")


@pytest.fixture
def site(tmp_path, capsys) -> Site:
    site = Site(tmp_path, capsys)
    roster = tmp_path / "werewolves.csv"
    roster.write_text(
        "name,email\n" + "".join(f"{name},p{n}@example.org\n" for n, name in enumerate(NAMES))
    )
    assert (
        site.pbp(
            "new-game",
            "--ruleset",
            "werewolf",
            "--roster",
            str(roster),
            "--seed",
            "7",
            "--id",
            "w1",
            "--no-send",
        )
        == 0
    )
    site.game_file = tmp_path / "data" / "games" / "w1.json"
    return site


def test_reply_finds_a_player_written_without_accents(site):
    assert site.pbp("reply", "w1", "jose", "Yes, the vote closes at noon.", "--no-send") == 0
    assert site.output()[0].startswith("Answer sent to José.")


def test_show_submit_and_modkill_find_names_ignoring_case_and_accents(site):
    assert site.pbp("show", "w1", "JOSE") == 0
    assert site.output()[0].startswith("José: ")
    assert site.pbp("submit", "w1", "jose", "STATUS") == 0
    assert "José" in site.output()[0]
    assert site.pbp("modkill", "w1", "jose", "left", "the", "forum", "--no-send") == 0
    assert site.output()[0].startswith("José is removed from game w1.")


def test_substitute_finds_the_character_ignoring_accents(site):
    assert site.pbp("substitute", "w1", "jose", "Lena", "lena@example.org", "--no-send") == 0
    assert "Lena now plays José" in site.output()[0]


def test_a_near_miss_is_refused_with_the_name_it_likely_meant(site):
    site.refused(
        "show", "w1", "Jsoe", says="There is no player or NPC 'Jsoe' in game w1; did you mean José?"
    )
    site.refused("reply", "w1", "jsoe", "hi", says="did you mean José?")
    site.refused("modkill", "w1", "Jsoe", "gone", says="did you mean José?")
    site.refused(
        "substitute",
        "w1",
        "jsoe",
        "Lena",
        "lena@example.org",
        says="There is no player 'jsoe' in game w1; did you mean José?",
    )


def test_a_latin_spelling_never_finds_a_cyrillic_name(site):
    """Scripts stay apart, as in orders: `ivan` is not Иван (a look-alike must not pass)."""
    err = site.refused(
        "show", "w1", "ivan", says="There is no player or NPC 'ivan' in game w1; they are: "
    )
    assert "Иван" in err
