"""`pbp rules <ruleset>`: what a host needs to set up a game of that ruleset, read from the
ruleset's card and option table (engine.core.RulesetCard, OptionSpec) and the moderator's
options (pbp.game.options): its phase kinds with their default deadline lengths, its
options with their defaults, its roles or classes, and every order."""

from __future__ import annotations

import shutil
from argparse import Namespace

import engine
from engine.core import OptionSpec, Ruleset
from pbp.commands.common import add_settings_arguments, settings_of, Subparsers
from pbp.game.options import OPTIONS, defaults
from pbp.desk.help import MARK_NOW, table_lines
from pbp.rulesets import load_ruleset
from pbp.settings import settings_path


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "rules", help="a ruleset's phase kinds, options, roles or classes, and orders"
    )
    parser.add_argument("ruleset", choices=engine.rulesets(), help="the ruleset to describe")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value) if value != "" else "(none)"


def _option_line(spec: OptionSpec) -> str:
    takes = (
        f"one of {', '.join(str(c) for c in spec.choices)}"
        if spec.choices
        else (
            "on or off"
            if isinstance(spec.default, bool)
            else "a whole number"
            if isinstance(spec.default, int)
            else ""
        )
    )
    words = "; ".join(part for part in (spec.help, takes) if part)
    return f"  {spec.name}={_shown(spec.default)}" + (f"  - {words}" if words else "")


RULES_WIDTH = 100  # the widest `pbp rules` wraps to, however wide the terminal


def terminal_width() -> int:
    """The width `pbp rules` wraps to: the terminal's ($COLUMNS first), at most RULES_WIDTH."""
    return min(RULES_WIDTH, shutil.get_terminal_size((RULES_WIDTH, 24)).columns)


def describe(name: str, rules: Ruleset) -> list[str]:
    """The text of `pbp rules <name>`, as lines."""
    card = rules.card
    width = max(len(kind.kind) for kind in card.phase_kinds)
    lines = [
        f"{name.capitalize()}: what `pbp new-game --ruleset {name}` can set up.",
        "",
        "Phase kinds (--schedule KIND=DURATION,…; the default deadline length in brackets):",
    ]
    lines += [f"  {kind.kind:<{width}}  [{kind.length}]  {kind.label}" for kind in card.phase_kinds]
    lines += ["", "Options of the ruleset (--option KEY=VALUE; shown with their defaults):"]
    lines += [_option_line(spec) for spec in rules.options.values()]
    lines += [
        "",
        "Options of the moderator (every ruleset; `pbp options` changes them in a running game):",
    ]
    lines += [
        f"  {key}={default}  - {OPTIONS[key].help}" for key, default in defaults(card).items()
    ]
    heading = "Classes" if card.choosing_kind == "class" else "Roles"
    lines += ["", f"{heading} (name, who has it, what it does):"]
    lines += [f"  {role}  ({side}): {what}" for role, side, what in card.roles]
    if card.npcs_allowed:
        lines += [
            "",
            (
                "NPCs (--npc NAME:CLASS:TEAM, played by the host): class one of"
                f" {', '.join(card.npc_kinds)}; team one of {', '.join(card.npc_teams)}."
            ),
        ]
    lines += ["", "Orders, phase by phase:"]
    # The table's own indentation is kept, so each explanation sits under its order, and
    # it is wrapped to the terminal (at most RULES_WIDTH), not to a mail line.
    margin = len(MARK_NOW) + 1
    lines += [
        line.rstrip() and f"  {line[margin:].rstrip()}"
        for line in table_lines(card.orders, None, "", width_limit=terminal_width() + margin - 2)
    ]
    for order, grammar in card.argument_grammars:
        lines += ["", f"The statement of {order}:", str(grammar).rstrip()]
    return lines


def run(args: Namespace) -> int:
    # With a settings file, Werewolf lists the host's extra roles ([roles] modules) too;
    # without one, the built-in rules (a host may read them before `pbp init`).
    if args.settings or args.data or settings_path(None).exists():
        settings = settings_of(args)
        base = str(settings.source.parent) if settings.source else ""
        rules = load_ruleset(args.ruleset, settings.role_modules, base)
    else:
        rules = engine.ruleset(args.ruleset)
    print("\n".join(describe(args.ruleset, rules)))
    return 0
