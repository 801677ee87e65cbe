"""pbp's game engines: pure rules behind one contract (see engine.core)."""
from __future__ import annotations

from importlib import import_module
from typing import Any

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
    Resolution,
    Result,
    Ruleset,
    RulesetCard,
)

# The ruleset registry: name -> module whose `make_ruleset(**config)` builds it.
# Imported lazily so that using one ruleset never loads the other.
_RULESET_MODULES = {
    "infiltration": "engine.infiltration",
    "werewolf": "engine.werewolf",
}


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
