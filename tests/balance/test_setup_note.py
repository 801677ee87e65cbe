"""`pbp new-game` and `pbp open-game` say in one line when the chosen setup lies outside
the balanced band at the default skill (by its figure, with the even game outside its
interval), with the figure and how it was measured,
and start or open the game anyway (docs/balance.md: The note when a game starts)."""

from __future__ import annotations

from engine.players import DEFAULT_SKILL
from pbp.commands import balance_note as screen
from pbp.commands.balance_note import (
    CACHE,
    GAMES,
    cache_folder,
    leans,
    sizes_to_check,
    village_rate,
)
from tests.commands.test_cli_commands import Site


def test_new_game_notes_a_lopsided_setup_and_starts_it_all_the_same(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    site = Site(tmp_path, capsys)  # a six-player Infiltration game, started by new-game
    out, _ = site.output()
    judged = village_rate("infiltration", 6, {})
    assert judged is not None and (cache_folder() / CACHE).exists()
    assert "started" in out
    if leans(judged):
        notes = [line for line in out.splitlines() if line.startswith("Balance note")]
        assert len(notes) == 1 and judged.figure() in notes[0]
        assert f"{GAMES} simulated games a setup at the default skill {DEFAULT_SKILL:g}" in notes[0]
        assert "the game goes ahead as chosen" in notes[0]
    else:
        assert "Balance note" not in out


def test_open_game_notes_each_lopsided_size_it_checked(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    site = Site(tmp_path, capsys)
    site.output()
    assert (
        site.pbp("open-game", "ww9", "--ruleset", "werewolf", "--players", "8..9", "--closes", "3d")
        == 0
    )
    out, _ = site.output()
    assert "open for sign-ups" in out
    judged = {size: village_rate("werewolf", size, {}) for size in (8, 9)}
    outside = [size for size, verdict in judged.items() if verdict and leans(verdict)]
    notes = [line for line in out.splitlines() if line.startswith("Balance note")]
    assert len(notes) == (1 if outside else 0)
    for size in outside:
        assert f"{size} players: the setup " in notes[0] and judged[size].figure() in notes[0]  # type: ignore[union-attr]


def test_the_note_plays_no_game_once_its_setup_is_cached(tmp_path, monkeypatch):
    """The second game of a setup plays no game: the figure comes from the cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = village_rate("werewolf", 8, {})
    cache = (tmp_path / "pbp" / CACHE).read_bytes()

    def no_games(*arguments: object) -> None:
        raise AssertionError("a cached setup was played again")

    monkeypatch.setattr(screen, "play_in_parallel", no_games)
    assert village_rate("werewolf", 8, {}) == first
    assert (tmp_path / "pbp" / CACHE).read_bytes() == cache


def test_open_game_checks_the_ends_and_the_middle_of_a_long_range():
    assert sizes_to_check(8, 10) == [8, 9, 10]
    assert sizes_to_check(8, 20) == [8, 14, 20]


def test_the_note_names_a_setup_outside_the_band_by_its_figure_even_when_its_interval_reaches_in():
    """Few games make a wide interval: the note speaks when the figure lies outside the band
    and the even game lies outside the interval."""
    from engine.core import RulesetCard
    from pbp.balance.estimate import Rate
    from pbp.balance.verdict import judge

    card = RulesetCard(
        game_id_prefix="t", phase_kinds=(), orders=(), side_names=(("a", "the As"), ("b", "the Bs"))
    )
    for wins in range(GAMES + 1):
        verdict = judge(card, Rate(wins, GAMES))
        assert verdict is not None
        low, high = verdict.rate.interval
        assert leans(verdict) == (not 0.4 <= wins / GAMES <= 0.6 and not low <= 0.5 <= high)
        assert not verdict.outside or leans(verdict)
