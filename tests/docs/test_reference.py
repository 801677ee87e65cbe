"""The documentation site's reference (docs/design.md: The documentation site): every command,
flag, setting, per-game option, phase kind, role and order the code declares has its entry in
the pages docs/hooks/reference.py writes when the site is built."""

from __future__ import annotations

import argparse
import configparser
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

import engine
from pbp.cli import build_parser
from pbp.game.options import OPTIONS

ROOT = Path(__file__).resolve().parents[2]


def load_reference() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "docs_reference", ROOT / "docs" / "hooks" / "reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


reference = load_reference()


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    written: dict[str, str] = reference.pages()
    return written


def sections(markdown: str) -> dict[str, str]:
    """The page's text under each heading, by the heading's `{#anchor}`."""
    parts = re.split(r"^#+ .*\{#([\w-]+)\}\s*$", markdown, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2]))


def flags_in_help(parser: argparse.ArgumentParser) -> set[str]:
    """Every flag `pbp <command> --help` lists (the public face of the parser: each
    option not hidden from the help; a flag named in a description is not one)."""
    return {
        flag
        for action in parser._actions
        if action.help is not argparse.SUPPRESS
        for flag in action.option_strings
    } - {"-h", "--help"}


def test_every_command_and_flag_has_an_entry(pages: dict[str, str]) -> None:
    page = pages[reference.COMMANDS_PAGE]
    by_anchor = sections(page)
    parser = build_parser()
    commands = list(reference.subcommands(parser))
    for flag in flags_in_help(parser):
        assert f"`{flag}" in by_anchor["pbp"], f"`pbp {flag}` has no entry"
    assert {"new-game", "run", "status"} <= {command.words[0] for command in commands}
    for command in commands:
        anchor = "-".join(command.words)
        assert anchor in by_anchor, f"`{command.name}` has no entry in the command reference"
        assert f"(#{anchor})" in page, f"`{command.name}` is missing from the commands table"
        entry = by_anchor[anchor]
        for flag in flags_in_help(command.parser):
            assert f"`{flag}" in entry or f", {flag}" in entry, (
                f"`{command.name} {flag}` has no entry"
            )
        for action in command.parser._actions:
            if not action.option_strings and not isinstance(action, argparse._SubParsersAction):
                assert f"- `{action.metavar or action.dest}`" in entry, (
                    f"the argument {action.dest} of `{command.name}` has no entry"
                )


def test_a_new_command_is_picked_up_with_its_flags() -> None:
    """A command another module registers tomorrow needs no change to the reference."""
    parser = build_parser()
    subparsers = next(
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    )
    added = subparsers.add_parser("snapshot", help="write a snapshot of the data folder")
    added.add_argument("file", metavar="FILE", help="where to write it")
    added.add_argument("--compress", choices=("gz", "xz"), default="gz", help="how to compress it")
    entry = sections(reference.commands_page(parser))["snapshot"]
    assert "Write a snapshot of the data folder." in entry
    assert "- `FILE`: where to write it" in entry
    assert "- `--compress COMPRESS`: how to compress it (one of `gz`, `xz`; default `gz`)" in entry


def test_angle_brackets_in_help_stay_visible() -> None:
    assert (
        reference.text("JOIN <game> <name>, see `pbp show <game>`")
        == "JOIN &lt;game&gt; &lt;name&gt;, see `pbp show <game>`"
    )


def test_every_setting_has_an_entry(pages: dict[str, str]) -> None:
    source = (ROOT / "settings.example.ini").read_text(encoding="utf-8")
    settings = configparser.ConfigParser(interpolation=None)
    settings.read_string(source)
    by_anchor = sections(pages[reference.SETTINGS_PAGE])
    for section in settings.sections():
        assert section in by_anchor, f"[{section}] has no entry in the settings reference"
        for key, value in settings.items(section, raw=True):
            if key in settings.defaults():
                continue
            anchor = f"{section}-{key}".replace("_", "-")
            assert anchor in by_anchor, f"[{section}] {key} has no entry in the settings reference"
            shown = f"Default: `{value}`." if value else "Default: empty."
            assert shown in by_anchor[anchor], (
                f"[{section}] {key}: the entry does not give its default"
            )
    # A setting shown only commented out (a password file) has its entry too.
    for section, key in (
        ("imap", "password_file"),
        ("oauth", "client_secret_file"),
        ("discourse", "api_key_file"),
    ):
        assert "Not set by default" in by_anchor[f"{section}-{key}".replace("_", "-")]


def test_a_settings_comment_goes_with_its_setting() -> None:
    intro, found = reference.settings_sections(
        "# The file.\n\n[pbp]\n# How often.\n#   60: a minute\nevery = 60\n# secret_file = s.txt\n"
        "# An example inside a comment:\n# every = 5\nother =\n# A note at the end.\n"
    )
    assert intro == ["The file."]
    (section,) = found
    assert [(s.key, s.default, s.comment, s.optional) for s in section.settings] == [
        ("every", "60", ["How often.", "  60: a minute"], False),
        ("secret_file", "s.txt", [], True),
        ("other", "", ["An example inside a comment:", "every = 5"], False),
    ]
    assert section.notes == ["A note at the end."]


@pytest.mark.parametrize("name", engine.rulesets())
def test_every_option_phase_kind_role_and_order_has_an_entry(
    pages: dict[str, str], name: str
) -> None:
    ruleset = engine.ruleset(name)
    page = pages[reference.ruleset_page(name)]
    by_anchor = sections(page)
    for option in ruleset.options:
        assert f"option-{option.replace('_', '-')}" in by_anchor, (
            f"{name} option {option} has no entry"
        )
    for kind in ruleset.card.phase_kinds:
        assert f"- `{kind.kind}`: " in page, f"{name} phase kind {kind.kind} has no entry"
    for role, _, _ in ruleset.card.roles:
        assert f"- **{role}**" in page, f"{name} role {role} has no entry"
    for line in ruleset.card.orders:
        assert f"- `{line.order}`" in page, f"{name} order {line.order} has no entry"


def test_every_game_option_of_the_moderator_has_an_entry(pages: dict[str, str]) -> None:
    by_anchor = sections(pages[reference.OPTIONS_PAGE])
    for option in OPTIONS.values():
        assert option.name.replace("_", "-") in by_anchor, f"game option {option.name} has no entry"
        assert f"Default: `{option.default}`." in by_anchor[option.name.replace("_", "-")]


def test_every_generated_page_is_in_the_sites_navigation(pages: dict[str, str]) -> None:
    navigation = set(
        re.findall(
            r":\s*(\S+\.md)\s*$",
            (ROOT / "mkdocs.yml").read_text(encoding="utf-8"),
            flags=re.MULTILINE,
        )
    )
    written = {str(path.relative_to(ROOT / "docs")) for path in (ROOT / "docs").rglob("*.md")}
    assert set(pages) | written <= navigation, "a page of docs/ is in no menu of mkdocs.yml"
