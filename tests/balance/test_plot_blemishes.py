"""The balance plots read as a host expects (docs/balance.md): "1 wolf", whole numbers of
players on the axis, the default skill marked, the NPCs' deaths apart from the players',
and a PNG wide enough to read."""

from __future__ import annotations

import engine
from engine.players import DEFAULT_SKILL
from pbp.balance.estimate import estimate
from pbp.balance.plots import PNG_WIDTH, plt, save, win_rates
from pbp.balance.runs import play_in_parallel


def estimates(ruleset: str, sizes: list[int], games: int = 3) -> list:
    rules = engine.ruleset(ruleset)
    return [
        estimate(
            play_in_parallel(rules, size, games, f"plots/{size}", {}, 1, None, DEFAULT_SKILL),
            size,
            DEFAULT_SKILL,
        )
        for size in sizes
    ]


def test_players_axis_has_whole_numbers_only(tmp_path):
    win_rates(estimates("werewolf", [8, 9, 10]), "players", "t", tmp_path / "p.svg")
    svg = (tmp_path / "p.svg").read_text()
    assert "8.5" not in svg and "9.5" not in svg and ">8<" in svg.replace(" ", "")


def test_skill_plot_marks_the_default_skill(tmp_path):
    found = estimates("werewolf", [8])
    win_rates(found, "skill", "t", tmp_path / "s.svg")
    assert f"default skill {DEFAULT_SKILL:g}" in (tmp_path / "s.svg").read_text()


def test_npc_deaths_are_counted_apart_from_the_players_deaths():
    found = estimates("infiltration", [12], games=4)[0]
    assert not any("guard" in cause and "deaths" in cause for cause in found.deaths)
    assert (
        set(found.npc_deaths) <= {"guards"}
        and found.to_json()["npc_deaths_per_game"] == found.npc_deaths
    )


def test_a_png_is_at_least_1200_pixels_wide(tmp_path):
    from matplotlib.image import imread

    figure, _ = plt.subplots(figsize=(7, 4.2))
    save(figure, tmp_path / "p.png")
    assert imread(tmp_path / "p.png").shape[1] >= 1200 and PNG_WIDTH >= 1200


def test_the_law_figure_says_one_wolf_in_the_singular(tmp_path):
    from pbp.balance.figures import law_figure

    law_figure(tmp_path, 1, 1, lambda line: None)
    svg = (tmp_path / "law.svg").read_text()
    assert "1 wolf, exact" in svg and "1 wolves" not in svg and "2 wolves, exact" in svg
