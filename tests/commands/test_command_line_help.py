"""The command line documents itself (docs/design.md: Command line): every positional and
option of every command has help text, `new-game --help` points to `pbp rules`,
`pbp --version` answers, and a word that is not a command (or an action, or a ruleset) is
answered in one line with the nearest one."""

from __future__ import annotations

import argparse

import pytest

from pbp.cli import build_parser, main


def _walk(parser: argparse.ArgumentParser, path: str):
    """(command path, action) for every argument of `parser` and of its sub-commands."""
    for action in parser._actions:  # argparse keeps no public list of a parser's arguments
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _walk(sub, f"{path} {name}")
        elif not isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            yield path, action


def test_every_positional_and_option_of_every_command_has_help_text():
    missing = [
        f"{path} {action.option_strings[0] if action.option_strings else action.dest}"
        for path, action in _walk(build_parser(), "pbp")
        if not (action.help or "").strip() or action.help == argparse.SUPPRESS
    ]
    assert missing == []


def test_every_command_has_a_one_line_summary():
    subparsers = next(
        a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)
    )
    assert all(choice.help for choice in subparsers._choices_actions)
    assert {choice.dest for choice in subparsers._choices_actions} >= {
        "rules",
        "show",
        "submit",
        "draft",
    }


def test_new_game_help_points_to_pbp_rules(capsys):
    with pytest.raises(SystemExit):
        main(["new-game", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "pbp rules <ruleset>" in text


def test_version(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--version"])
    assert exit.value.code == 0
    assert capsys.readouterr().out.startswith("pbp ")


@pytest.mark.parametrize(
    "argv, said",
    [
        (
            ["stattus"],
            "pbp: argument <command>: 'stattus' is not known. Did you mean status? See `pbp --help`.\n",
        ),
        (
            ["stauts"],
            "pbp: argument <command>: 'stauts' is not known. Did you mean status or stats? "
            "See `pbp --help`.\n",
        ),
        (
            ["draft", "aprove", "g1"],
            "pbp draft: argument <action>: 'aprove' is not known. Did you mean approve? See `pbp draft --help`.\n",
        ),
        (
            ["rules", "werwolf"],
            "pbp rules: argument ruleset: 'werwolf' is not known. Did you mean werewolf? See `pbp rules --help`.\n",
        ),
        (
            ["rules", "chess"],
            "pbp rules: argument ruleset: 'chess' is not known. Choose from infiltration, werewolf. "
            "See `pbp rules --help`.\n",
        ),
    ],
)
def test_an_unknown_word_gets_the_nearest_choice_in_one_line(argv, said, capsys):
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2
    assert capsys.readouterr().err == said
