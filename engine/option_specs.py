"""A ruleset's per-game options and the one on/off vocabulary every option is read with,
the engine's and the moderator's (docs/design.md: Engine contract)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from engine.errors import GameSetupError


@dataclass(frozen=True)
class OptionSpec:
    """A per-game option: its default and the values it accepts (empty: any integer)."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    help: str = ""

    def coerce(self, raw: Any) -> Any:
        """The option's value from host input (strings from the command line)."""
        if isinstance(self.default, bool):
            value = parse_on_off(raw)
            if value is None:
                raise GameSetupError(f"Option {self.name} takes on or off, not {raw!r}.")
            return value
        if isinstance(self.default, int) and self.default is not None and not self.choices:
            try:
                return int(raw)
            except (TypeError, ValueError):
                raise GameSetupError(
                    f"Option {self.name} takes a whole number, not {raw!r}."
                ) from None
        choice = raw if not isinstance(raw, str) else raw.strip().lower()
        if self.choices and choice not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise GameSetupError(f"Option {self.name} takes one of {allowed}, not {raw!r}.")
        return choice


ON_WORDS = ("on", "yes", "true", "1")
OFF_WORDS = ("off", "no", "false", "0", "none")


def parse_on_off(raw: Any) -> bool | None:
    """The one on/off vocabulary of every option, the engine's and the moderator's:
    on/yes/true/1 and off/no/false/0/none, any case; None for anything else."""
    text = str(raw).strip().lower()
    if text in ON_WORDS:
        return True
    if text in OFF_WORDS:
        return False
    return None


def resolve_options(specs: Mapping[str, OptionSpec], given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with the host's choices; an unknown option is a setup error."""
    unknown = sorted(set(given) - set(specs))
    if unknown:
        known = ", ".join(sorted(specs)) or "none"
        raise GameSetupError(f"Unknown option {unknown[0]!r}; this ruleset's options are: {known}.")
    options = {name: spec.default for name, spec in specs.items()}
    for name, raw in given.items():
        options[name] = specs[name].coerce(raw)
    return options
