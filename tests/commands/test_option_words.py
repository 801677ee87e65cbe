"""One vocabulary for options (docs/design.md: Deadlines): every option that is switched on
or off, the moderator's and each ruleset's, takes the words of `engine.core.parse_on_off`
(`none`, `0`, `yes`, `On` among them) through `pbp new-game --option` and through
`pbp options`, and the game then holds the value the word means."""

from __future__ import annotations

from argparse import Namespace

import pytest

import engine
from engine.core import ON_WORDS
from pbp.cli import main
from pbp.commands.common import open_reader
from pbp.game.options import OPTIONS, is_on
from pbp.game.option_values import OptionValueError, reminder_offsets
from pbp.game.stored import StoredGame, load

WORDS = ("none", "0", "yes", "On")
PLAYERS = {"infiltration": 5, "werewolf": 8}


def _takes(name: str, word: str) -> bool:
    try:
        OPTIONS[name].coerce(word)
    except (OptionValueError, ValueError):
        return False
    return True


# Options switched on or off, and options that take other values but may also be switched
# off (a rhythm, a group of spectators): found from the declarations, so a new one is tested too.
ON_OFF = tuple(name for name in OPTIONS if _takes(name, "on") and _takes(name, "off"))
OFF_ONLY = tuple(name for name in OPTIONS if _takes(name, "off") and name not in ON_OFF)


def _engine_switches(ruleset: str) -> tuple[str, ...]:
    return tuple(
        name
        for name, spec in engine.ruleset(ruleset).options.items()
        if isinstance(spec.default, bool)
    )


def _moderator_words(word: str) -> dict[str, str]:
    """Each moderator option `word` may be given to: the on/off ones, and the off-only ones
    when the word means off."""
    on = word.lower() in ON_WORDS
    return {name: word for name in (*ON_OFF, *(() if on else OFF_ONLY))}


def _stored(game_id: str) -> StoredGame:
    with open_reader(
        Namespace(settings=None, data=None)
    ) as moderator:  # ./pbp.ini, as `pbp show` reads it
        return load(moderator, game_id)


def _assert_means(game: StoredGame, given: dict[str, str], on: bool) -> None:
    options = game.record.moderator_options
    for name in given:
        assert options[name] == ("on" if on else "off"), name
    for name in ON_OFF:
        assert is_on(options, name) is on, name
    assert bool(reminder_offsets(options["reminders"])) is on


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    for ruleset, count in PLAYERS.items():
        (tmp_path / f"{ruleset}.csv").write_text(
            "name,email\n" + "".join(f"P{n},p{n}@example.org\n" for n in range(1, count + 1))
        )
    return tmp_path


def test_the_declarations_name_the_switches():
    assert {"reminders", "resolve_when_all_in", "wait_for_publish"} <= set(ON_OFF)
    assert {"tally_every", "spectators"} <= set(OFF_ONLY)
    assert _engine_switches("infiltration") and _engine_switches("werewolf")


@pytest.mark.parametrize("ruleset", sorted(PLAYERS))
@pytest.mark.parametrize("word", WORDS)
def test_new_game_takes_every_word_for_every_switch(folder, capsys, ruleset, word):
    on = word.lower() in ON_WORDS
    given = _moderator_words(word)
    switches = _engine_switches(ruleset)
    options = [f"{name}={value}" for name, value in given.items()] + [
        f"{name}={word}" for name in switches
    ]
    command = [
        "new-game",
        "--ruleset",
        ruleset,
        "--roster",
        f"{ruleset}.csv",
        "--seed",
        "3",
        "--id",
        "g1",
        "--no-send",
    ]
    assert main([*command, *(part for option in options for part in ("--option", option))]) == 0, (
        capsys.readouterr().err
    )
    game = _stored("g1")
    _assert_means(game, given, on)
    state_options = dict(game.state.options)
    for name in switches:
        assert state_options[name] is on, name


@pytest.mark.parametrize("word", WORDS)
def test_the_options_command_takes_every_word_for_every_switch(folder, capsys, word):
    on = word.lower() in ON_WORDS
    assert (
        main(
            [
                "new-game",
                "--ruleset",
                "werewolf",
                "--roster",
                "werewolf.csv",
                "--seed",
                "3",
                "--id",
                "g1",
                "--no-send",
                "--option",
                f"reminders={'off' if on else 'on'}",
            ]
        )
        == 0
    )
    given = _moderator_words(word)
    assert main(["options", "g1", *(f"{name}={value}" for name, value in given.items())]) == 0, (
        capsys.readouterr().err
    )
    shown = capsys.readouterr().out
    for name in given:
        assert f"{name}={'on' if on else 'off'}" in shown, shown
    _assert_means(_stored("g1"), given, on)
