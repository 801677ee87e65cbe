"""The reference pages of the documentation site, written at build time from the code's own
declarations (docs/design.md: The documentation site): every command and flag from the
argument parser, every setting from `settings.example.ini`, every per-game option, phase
kind, role and order from the ruleset cards and the moderator's option table.

MkDocs loads this module as a hook (`hooks:` in mkdocs.yml) and calls `on_files`; the test
tests/docs/test_reference.py calls `pages()` and checks that every name has its entry.
Nothing here is written to `docs/`: the pages exist only in the built site.
"""

from __future__ import annotations

import argparse
import configparser
import html
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_FILE = ROOT / "settings.example.ini"
COMMANDS_PAGE = "reference/commands.md"
SETTINGS_PAGE = "reference/settings.md"
OPTIONS_PAGE = "reference/game-options.md"


def ruleset_page(name: str) -> str:
    return f"reference/{name}.md"


# --------------------------------------------------------------------------- commands
@dataclass(frozen=True)
class Command:
    """One sub-command: its words after `pbp` (`draft approve`), its one-line help and
    its parser."""

    words: tuple[str, ...]
    help: str
    parser: argparse.ArgumentParser

    @property
    def name(self) -> str:
        return " ".join(("pbp",) + self.words)


def subcommands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> Iterator[Command]:
    """Every sub-command of `parser`, nested ones after their parent, in the order the
    parser declares them. The one place that reads argparse's structures: argparse keeps
    its sub-parsers and their help only in `_actions` and `_choices_actions`."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, child in action.choices.items():
                yield Command(words + (name,), helps.get(name, ""), child)
                yield from subcommands(child, words + (name,))


def arguments(command: Command) -> list[argparse.Action]:
    """The arguments a host can give the command (help and sub-command choices aside)."""
    return [
        action
        for action in command.parser._actions
        if action.help != argparse.SUPPRESS
        and not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))
    ]


def text(raw: str) -> str:
    """Plain text from the code as Markdown: `<game>` stays visible (outside code spans the
    angle brackets would read as HTML), code spans stay as they are."""
    parts = raw.split("`")
    return "`".join(
        part if index % 2 else html.escape(part, quote=False) for index, part in enumerate(parts)
    )


def argument_name(action: argparse.Action) -> str:
    if not action.option_strings:
        return str(action.metavar or action.dest)
    metavar = ""
    if action.nargs != 0:
        metavar = " " + str(action.metavar or action.dest.upper())
    return ", ".join(f"{flag}{metavar}" for flag in action.option_strings)


def argument_help(action: argparse.Action, prog: str) -> str:
    help_text = action.help or ""
    if "%" in help_text:  # argparse's own expansion (`%(default)s`, `%%`), as `--help` prints it
        params = dict(vars(action), prog=prog)
        if params.get("choices") is not None:
            params["choices"] = ", ".join(map(str, params["choices"]))
        help_text = help_text % params
    extra = []
    if action.choices is not None and "%(choices" not in (action.help or ""):
        extra.append("one of " + ", ".join(f"`{choice}`" for choice in action.choices))
    default = action.default
    # A help that speaks of its default says it best ("default: every core", not this
    # machine's count of cores when the site was built).
    if (
        action.option_strings
        and action.nargs != 0
        and default not in (None, argparse.SUPPRESS, [], "")
        and "default" not in help_text
    ):
        extra.append(f"default `{default}`")
    sentence = text(help_text)
    if extra:
        sentence = f"{sentence} ({'; '.join(extra)})" if sentence else "; ".join(extra).capitalize()
    return sentence


def usage(parser: argparse.ArgumentParser, width: int = 88) -> str:
    """The command's usage as argparse writes it, wrapped to fit a page (argparse wraps at
    the terminal's width, `COLUMNS`), without its `usage: ` label."""
    label = "usage: "
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        written = parser.format_usage().rstrip()
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
    first, *rest = written.removeprefix(label).splitlines()
    return "\n".join(
        [
            first,
            *(line[len(label) :] if line.startswith(" " * len(label)) else line for line in rest),
        ]
    )


def command_anchor(command: Command) -> str:
    return "-".join(command.words) or "pbp"


def commands_page(parser: argparse.ArgumentParser) -> str:
    commands = list(subcommands(parser))
    lines = [
        "# Commands",
        "",
        "Every `pbp` command and its arguments, read from pbp's own argument parser when",
        "this site was built; `pbp <command> --help` prints the same on the terminal.",
        "Every command also takes `--help`.",
        "",
        "| Command | What it does |",
        "| --- | --- |",
    ]
    for command in commands:
        lines.append(
            f"| [`{command.name}`](#{command_anchor(command)}) | {sentence(command.help)} |"
        )
    for command in [Command((), parser.description or "", parser), *commands]:
        level = "#" * (1 + len(command.words)) if command.words else "##"
        lines += ["", f"{level} {command.name} {{#{command_anchor(command)}}}", ""]
        description = command.parser.description or command.help
        if description:
            lines += [sentence(description), ""]
        lines += ["```text", usage(command.parser), "```", ""]
        for action in arguments(command):
            lines.append(
                f"- `{argument_name(action)}`: {argument_help(action, command.parser.prog)}"
            )
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- settings
@dataclass
class Setting:
    section: str
    key: str
    default: str
    comment: list[str] = field(default_factory=list)
    optional: bool = False  # commented out in the example: not set unless the host sets it


@dataclass
class SettingsSection:
    name: str
    settings: list[Setting] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


COMMENTED_KEY = re.compile(r"^# (\w+) = ?(.*)$")


def settings_sections(source: str) -> tuple[list[str], list[SettingsSection]]:
    """The example settings file read as the reference shows it: the file's opening
    comment, then each section's settings with the comment block right above each, and the
    comments after a section's last setting as its notes. A `# key = value` line names a
    setting left out by default, unless the section sets that key (then it is an example
    inside a comment)."""
    real = configparser.ConfigParser(interpolation=None)
    real.read_string(source)
    intro: list[str] = []
    sections: list[SettingsSection] = []
    pending: list[str] = []
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            if not sections:
                intro, pending = pending, []
            sections.append(SettingsSection(stripped[1:-1]))
            continue
        current = sections[-1] if sections else None
        if not stripped:
            if pending and current is not None and not current.settings:
                pending.append("")  # a section's opening comment stands apart from its first key
            continue
        if stripped.startswith("#"):
            optional = COMMENTED_KEY.match(stripped)
            if (
                optional
                and current is not None
                and not real.has_option(current.name, optional.group(1))
            ):
                current.settings.append(
                    Setting(
                        current.name, optional.group(1), optional.group(2), pending, optional=True
                    )
                )
                pending = []
            else:
                pending.append(stripped[1:].removeprefix(" "))
            continue
        if current is None:
            continue
        key, _, value = stripped.partition("=")
        current.settings.append(
            Setting(current.name, key.strip(), value.strip(), _trimmed(pending))
        )
        pending = []
        continue
    if sections:
        sections[-1].notes = _trimmed(pending)
    return (intro, sections)


def _trimmed(lines: list[str]) -> list[str]:
    while lines and not lines[0]:
        lines = lines[1:]
    return lines


def _comment_markdown(lines: list[str]) -> list[str]:
    """A comment block as Markdown: its prose lines as paragraphs, its indented lines (lists
    of values, examples) as a preformatted block, as the file lays them out."""
    out: list[str] = []
    block: list[str] = []
    paragraph: list[str] = []

    def flush_paragraph() -> None:
        if paragraph:
            out.extend([text(" ".join(paragraph)), ""])
            paragraph.clear()

    def flush_block() -> None:
        if block:
            out.extend(["```text", *block, "```", ""])
            block.clear()

    for line in lines:
        if line.startswith(" "):
            flush_paragraph()
            block.append(line)
        elif not line:
            flush_paragraph()
            flush_block()
        else:
            flush_block()
            paragraph.append(line)
    flush_paragraph()
    flush_block()
    return out


def setting_anchor(setting: Setting) -> str:
    return f"{setting.section}-{setting.key}".replace("_", "-")


def settings_page(source: str) -> str:
    intro, sections = settings_sections(source)
    lines = [
        "# Settings",
        "",
        "Every setting of `pbp.ini`, read from `settings.example.ini` (the file `pbp init`",
        "copies) when this site was built, with the comment that stands above it there.",
        "",
    ]
    if intro:
        lines += ["The file opens with:", ""]
        lines += ["> " + line if line else ">" for line in _comment_markdown(intro)]
    explained: dict[
        str, Setting
    ] = {}  # a key's first commented entry, for a later section's bare twin
    for section in sections:
        lines += [f"## [{section.name}] {{#{section.name}}}", ""]
        for setting in section.settings:
            twin = explained.get(setting.key)
            if setting.comment:
                explained.setdefault(setting.key, setting)
            lines += [f"### `{setting.key}` {{#{setting_anchor(setting)}}}", ""]
            if setting.optional:
                example = f" (for example `{setting.default}`)" if setting.default else ""
                lines += [f"Not set by default{example}.", ""]
            else:
                shown = f"`{setting.default}`" if setting.default else "empty"
                lines += [f"Default: {shown}.", ""]
            lines += _comment_markdown(setting.comment)
            base = setting.key.removesuffix("_file")
            if (
                not setting.comment
                and setting.key.endswith("_file")
                and any(other.key == base for other in section.settings)
            ):
                lines += [
                    f"The file whose first line is `{base}`, which then stays out of the settings.",
                    "",
                ]
            elif not setting.comment and twin is not None:
                lines += [f"As [`[{twin.section}] {twin.key}`](#{setting_anchor(twin)}).", ""]
        if section.notes:
            lines += _comment_markdown(section.notes)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- rulesets
def _option_value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _shown(value: Any) -> str:
    return f"`{_option_value(value)}`" if _option_value(value) else "empty"


def sentence(raw: str) -> str:
    """A help fragment from the code (`the role the setup adds`) as a sentence."""
    words = text(raw.strip())
    if not words:
        return ""
    words = words[0].upper() + words[1:]
    return words if words.endswith((".", "?", "!")) else words + "."


def ruleset_markdown(name: str) -> str:
    import engine  # the rulesets load only when the reference is built

    ruleset = engine.ruleset(name)
    card = ruleset.card
    lines = [
        f"# {name.capitalize()}",
        "",
        f"What pbp's {name.capitalize()} declares on its ruleset card, read when this site",
        f"was built (`pbp rules {name}` prints the same). The rules themselves, with every",
        (
            "decision the rule texts leave open: [the rules of"
            f" {name.capitalize()}](../rules/{name}.md)."
        ),
        "",
        f"Game ids start with `{card.game_id_prefix}` (`{card.game_id_prefix}1`).",
        "",
        "## Options",
        "",
        f"Given at `pbp new-game` or `pbp open-game` as `--option key=value`.",
        "The moderator's own options, which every ruleset has, are in",
        "[Game options](game-options.md).",
        "",
    ]
    for option in ruleset.options.values():
        choices = (
            f"; one of {', '.join(f'`{_option_value(c)}`' for c in option.choices)}"
            if option.choices
            else ""
        )
        if isinstance(option.default, bool):
            choices = "; `on` or `off`"
        lines += [
            f"### `{option.name}` {{#option-{option.name.replace('_', '-')}}}",
            "",
            sentence(option.help),
            "",
            f"Default: {_shown(option.default)}{choices}.",
            "",
        ]
    if card.setup_files:
        lines += [
            "Given as a file: "
            + ", ".join(f"`--{option} FILE`" for option in card.setup_files)
            + ".",
            "",
        ]
    lines += [
        "## Phase kinds",
        "",
        (
            "The names `--schedule` takes (`kind=24h`), in the order players meet them, each with "
            "the deadline length its phases have unless the host sets another."
        ),
        "",
    ]
    lines += [
        f"- `{kind.kind}`: {text(kind.label)} (default `{kind.length}`)"
        for kind in card.phase_kinds
    ]
    lines += ["", "## Roles" if name != "infiltration" else "## Roles and classes", ""]
    lines += [f"- **{role}** ({text(side)}): {text(does)}" for role, side, does in card.roles]
    if card.npc_kinds:
        lines += [
            "",
            "Host-run characters (NPCs, `--npc NAME:CLASS:TEAM`) may be "
            + ", ".join(f"`{kind}`" for kind in card.npc_kinds)
            + ", on the team "
            + ", ".join(f"`{team}`" for team in card.npc_teams)
            + ".",
        ]
    lines += ["", "## Orders", ""]
    for phases in dict.fromkeys(line.phases for line in card.orders):
        lines += [f"### {phases}", ""]
        for line in card.orders:
            if line.phases == phases:
                note = f": {text(line.note)}" if line.note else ""
                lines.append(f"- `{line.order}` ({text(line.who)}){note}")
        lines.append("")
    for order, grammar in card.argument_grammars:
        lines += [f"The statement of `{order}`:", "", "```text", str(grammar), "```", ""]
    if card.take_back_words:
        lines += [
            "In a game that takes votes in the thread, a post takes its vote back with "
            + ", ".join(f"`{word}` (for `{order}`)" for word, order in card.take_back_words)
            + ".",
            "",
        ]
    lines += ["## How a game ends", ""]
    lines += [f"- `{path}`: {text(words)}" for path, words in card.victory_paths]
    return "\n".join(lines) + "\n"


def options_page() -> str:
    from pbp.game.options import OPTIONS

    lines = [
        "# Game options",
        "",
        "The moderator's per-game options, the same for every ruleset: given at",
        "`pbp new-game` or `pbp open-game` as `--option key=value`, shown and changed in a",
        "running game with `pbp options <game> [key=value …]`. Each ruleset's own options",
        "are on its page.",
        "",
    ]
    for option in OPTIONS.values():
        lines += [
            f"## `{option.name}` {{#{option.name.replace('_', '-')}}}",
            "",
            sentence(option.help),
            "",
            f"Default: {_shown(option.default)}.",
            "",
        ]
    return "\n".join(lines) + "\n"


def rulesets() -> tuple[str, ...]:
    import engine

    return engine.rulesets()


# --------------------------------------------------------------------------- the site
def pages() -> dict[str, str]:
    """Every generated page: its path under docs/ and its Markdown."""
    if str(ROOT) not in sys.path:  # the checkout's own code, installed or not
        sys.path.insert(0, str(ROOT))
    from pbp.cli import build_parser

    generated = {
        COMMANDS_PAGE: commands_page(build_parser()),
        SETTINGS_PAGE: settings_page(SETTINGS_FILE.read_text(encoding="utf-8")),
        OPTIONS_PAGE: options_page(),
    }
    for name in rulesets():
        generated[ruleset_page(name)] = ruleset_markdown(name)
    return generated


def on_files(files: Any, config: Any) -> Any:
    """MkDocs hook: add the generated pages to the site's files."""
    from mkdocs.structure.files import File

    for path, markdown in pages().items():
        files.append(File.generated(config, path, content=markdown))
    return files
