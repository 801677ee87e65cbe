"""pbp's game engines: pure rules behind one contract (see engine.core)."""

from __future__ import annotations

import functools
from importlib import import_module
from typing import Any, Sequence

from engine.core import (  # noqa: F401  (the public contract)
    Event,
    GameSetupError,
    HostActionError,
    IllegalOrderError,
    OptionSpec,
    OrderBlockError,
    OrderError,
    OrderLine,
    OrderSpec,
    OrderSyntaxError,
    Phase,
    PhaseKind,
    PlayerSpec,
    PlayerStatus,
    PublicCharacter,
    Resolution,
    Result,
    Ruleset,
    RulesetCard,
    SecretFields,
)
from engine import names
from engine.errors import Wording

# The ruleset registry: name -> module whose `make_ruleset(**config)` builds it.
# Imported lazily so that using one ruleset never loads the other.
_RULESET_MODULES = {"infiltration": "engine.infiltration", "werewolf": "engine.werewolf"}
# The ruleset a newcomer meets first: what `pbp demo` plays and `pbp init` suggests when
# no ruleset is named.
DEFAULT_RULESET = "infiltration"


def rulesets() -> tuple[str, ...]:
    """The names of the available rulesets."""
    return tuple(_RULESET_MODULES)


def ruleset(name: str, **config: Any) -> Ruleset:
    """One ruleset by name. `config` is passed to its factory (e.g. Werewolf's
    `extra_roles`, role definitions the caller imported itself)."""
    try:
        module_name = _RULESET_MODULES[name.lower()]
    except KeyError:
        known = ", ".join(_RULESET_MODULES)
        raise GameSetupError(f"Unknown ruleset {name!r}; choose one of: {known}.") from None
    made: Ruleset = import_module(module_name).make_ruleset(**config)
    return made


@functools.lru_cache(maxsize=1)  # the cards never change, and making every ruleset is slow
def name_rules() -> names.NameRules:
    """What no name may be in any ruleset: the shell's roster rule, so that a name never
    reads as any ruleset's order word or room (docs/design.md: Command line, the roster
    rules). Made once per process; it builds every ruleset once."""
    return names.NameRules.of(ruleset(name).card for name in rulesets())


def reserved_words() -> frozenset[str]:
    """Every word a name may not be: the mail syntax and every ruleset's grammar words."""
    return name_rules().words


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's or NPC's name in any ruleset, or None."""
    return names.name_problem(name, name_rules())


def roster_problems(players: Sequence[str]) -> list[str]:
    """Every reason why `players` cannot be one game's names (empty: they can)."""
    return names.roster_problems(players, name_rules())


def roster_wordings(players: Sequence[str]) -> list[Wording]:
    """`roster_problems` as Wordings a reader's language words (docs/design.md: Refusals
    in every language)."""
    return names.roster_wordings(players, name_rules())
