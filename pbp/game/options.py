"""Per-game options that belong to the moderator, not to a ruleset (docs/design.md: Deadlines).

`pbp new-game --option key=value` takes both kinds; `split_options` sends the engine's to
the ruleset (which refuses names it does not know) and keeps these:

- `reminders`: `on` (the default times, 24h and 1h before each deadline), `off`, or the
  times themselves, e.g. `reminders=12h,30m` (pbp.reminders).
- `resolve_when_all_in`: `on` resolves a phase as soon as every player who must act has
  orders in; default `off`. Never for a phase whose actors are secret (Werewolf `Nn`,
  `Nn-witch`): an early dawn would tell the village who acts at night
  (rules/werewolf.md, Phases: "so that timing reveals nothing").
- `wait_for_publish`: `on` starts a phase's clock only when the public post of the phase
  before it is published (docs/design.md: Public posts; pbp.game.deadlines); default `off`.
- `tally_every`: a duration (`6h`) drafts a running vote count on that rhythm in every
  voting phase (pbp.forum.tally_rhythm); default `off`.
- `spectators`: who gets the host's view of each resolution (pbp.signups.spectators):
  `off` nobody, `dead` the dead players, `all` the dead and every confirmed watcher
  (`WATCH <game>` by mail). Default `dead` for Werewolf, whose dead keep their eyes open,
  `off` for every other ruleset (docs/design.md: Conversations).
"""
from __future__ import annotations

from typing import Any, Collection, Mapping

from engine.core import Phase
from pbp.forum.tally_rhythm import OPTION as TALLY_EVERY, tally_interval
from pbp.reminders import OPTION as REMINDERS, reminder_offsets
from pbp.timezones import TimeInputError

RESOLVE_WHEN_ALL_IN = "resolve_when_all_in"
WAIT_FOR_PUBLISH = "wait_for_publish"
SPECTATORS = "spectators"
SPECTATOR_MODES = ("off", "dead", "all")
MODERATOR_OPTIONS = {REMINDERS: "on", RESOLVE_WHEN_ALL_IN: "off", WAIT_FOR_PUBLISH: "off", TALLY_EVERY: "off",
                     SPECTATORS: "off"}
RULESET_DEFAULTS = {"werewolf": {SPECTATORS: "dead"}}
ON_OFF_OPTIONS = (RESOLVE_WHEN_ALL_IN, WAIT_FOR_PUBLISH)
# What each moderator option does, in a few words (`pbp rules`, `pbp options --help`).
MODERATOR_OPTION_HELP = {
    REMINDERS: "on (24h and 1h before each deadline), off, or the times, e.g. 12h,30m",
    RESOLVE_WHEN_ALL_IN: "on: resolve a phase as soon as everyone who must act has orders in "
                         "(never a phase whose actors are secret)",
    WAIT_FOR_PUBLISH: "on: a phase's clock starts only when the post of the phase before it is published",
    TALLY_EVERY: "a running vote count every so long in voting phases, such as 6h, or off",
    SPECTATORS: "who gets the host's view of each resolution: off, dead (the dead players) or all "
                "(the dead and confirmed watchers, WATCH <game> by mail)",
}
_TRUE, _FALSE = ("on", "yes", "true", "1"), ("off", "no", "false", "0")


class OptionValueError(ValueError):
    """A moderator option with a value it does not take; the message says which it takes."""


def split_options(given: Mapping[str, str], ruleset: str = "") -> tuple[dict[str, Any], dict[str, Any]]:
    """(moderator options with defaults filled in and checked, the ruleset's options);
    `ruleset` picks the defaults that differ per ruleset (`RULESET_DEFAULTS`)."""
    moderator = {**MODERATOR_OPTIONS, **RULESET_DEFAULTS.get(ruleset, {})}
    engine_options = {}
    for key, value in given.items():
        name = key.strip().lower()
        if name in MODERATOR_OPTIONS:
            moderator[name] = str(value).strip().lower()
        else:
            engine_options[key] = value
    for name in ON_OFF_OPTIONS:
        if moderator[name] not in _TRUE + _FALSE:
            raise OptionValueError(f"Option {name} takes on or off, not {moderator[name]!r}.")
    if moderator[SPECTATORS] not in SPECTATOR_MODES:
        raise OptionValueError(f"Option spectators takes off, dead or all, not {moderator[SPECTATORS]!r}.")
    try:
        reminder_offsets(moderator[REMINDERS])
        tally_interval(moderator[TALLY_EVERY])
    except TimeInputError as error:
        raise OptionValueError(str(error)) from None
    return moderator, engine_options


def is_on(options: Mapping[str, str], name: str) -> bool:
    return str(options.get(name, MODERATOR_OPTIONS.get(name, "off"))).strip().lower() in _TRUE


def may_resolve_early(options: Mapping[str, str], phase: Phase | None,
                      players_with_orders: Collection[str]) -> bool:
    """Early resolution (option `resolve_when_all_in`): every actor of the open phase has
    accepted orders in, the phase's actors are not secret, and the option is on."""
    if phase is None or not is_on(options, RESOLVE_WHEN_ALL_IN) or phase.secret_actors:
        return False
    return bool(phase.actors) and set(phase.actors) <= set(players_with_orders)


def spectators_mode(record: Mapping[str, Any]) -> str:
    """The game's `spectators` option (`off`, `dead` or `all`), its ruleset's default when
    the game was made before the option existed."""
    options = record.get("moderator_options", {})
    default = RULESET_DEFAULTS.get(record.get("ruleset", ""), {}).get(SPECTATORS, MODERATOR_OPTIONS[SPECTATORS])
    return str(options.get(SPECTATORS, default)).strip().lower()


def awaits_nobody(phase: Phase | None) -> bool:
    """Whether the open phase ends at once, whatever the options: nobody in it has an order
    to give, and the engine says that is no secret (e.g. a Night 0 in which no role of the
    setup acts). Waiting out its deadline would only delay everyone."""
    return phase is not None and not phase.secret_actors and not phase.awaited
