"""Per-game options that belong to the moderator, not to a ruleset (docs/design.md: Deadlines).

`pbp new-game --option key=value` takes both kinds; `split_options` sends the engine's to
the ruleset (which refuses names it does not know) and keeps these. Each is declared once
(`OPTIONS`) with its default and help, and coerced to its stored form (read by
pbp.game.option_values); every on/off value reads by the one vocabulary of
`engine.core.parse_on_off`. A card may change a default (`default_moderator_options`).

- `reminders`: `on` (the default times, 24h and 1h before each deadline), `off`, or the
  times themselves, e.g. `reminders=12h,30m` (pbp.game.notifying.reminders).
- `resolve_when_all_in`: `on` resolves a phase as soon as every player who must act has
  orders in; default `off`. Never for a phase whose actors are secret (Werewolf `Nn`,
  `Nn-witch`): an early dawn would tell the village who acts at night
  (rules/werewolf.md, Phases: "so that timing reveals nothing").
- `wait_for_publish`: `on` starts a phase's clock only when the public post of the phase
  before it is published (docs/design.md: Public posts; pbp.game.deadlines); default `off`.
- `tally_every`: a duration (`6h`) drafts a running vote count on that rhythm in every
  voting phase (pbp.game.tally); default `off`.
- `votes`: where the public orders (the card's `public_orders`: votes, nominations) are
  taken: `mail` (the default), `thread` (posts in the game's public thread, read by
  pbp.forum.thread.thread_votes) or `both`. Private orders always go by mail.
- `tally_after_votes`: a number N drafts a running count after every N public orders
  accepted in a phase (a vote, a changed vote, a vote taken back); default `off`.
- `prod_below`: `N@T` (`3@12h`) mails a private prod to a living player with fewer than N
  posts in the thread this game day by T before a voting phase's deadline
  (pbp.forum.thread.activity); default `off`.
- `thread_receipts`: `on` mails a receipt for each vote accepted from the thread; default
  `off` (the running count in the thread is the public receipt).
- `spectators`: who gets the host's view of each resolution (pbp.signups.spectators):
  `off` nobody, `dead` the dead players, `all` the dead and every confirmed watcher
  (`WATCH <game>` by mail). Default `dead` for Werewolf, whose dead keep their eyes open,
  `off` for every other ruleset (docs/design.md: Conversations).
- `language`: the thread's language (and a watcher's), e.g. `language=de`, set when the game
  is made and stored only when given: not among `OPTIONS`, which a running game may change
  (docs/design.md: Each reader's language).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Callable, Collection, Mapping

from engine.core import Phase, Ruleset, RulesetCard, parse_on_off
from pbp.render.languages import SOURCE_LANGUAGE, language_problem
from pbp.game.option_values import OptionValueError, prod_rule, reminder_offsets, tally_interval
from pbp.timezones import TimeInputError

REMINDERS = "reminders"
RESOLVE_WHEN_ALL_IN = "resolve_when_all_in"
WAIT_FOR_PUBLISH = "wait_for_publish"
TALLY_EVERY = "tally_every"
SPECTATORS = "spectators"
VOTES = "votes"
VOTE_CHANNELS = ("mail", "thread", "both")
TALLY_AFTER_VOTES = "tally_after_votes"
PROD_BELOW = "prod_below"
THREAD_RECEIPTS = "thread_receipts"
LANGUAGE = "language"
SPECTATOR_MODES = ("off", "dead", "all")
ON_OFF_OPTIONS = (
    RESOLVE_WHEN_ALL_IN,
    WAIT_FOR_PUBLISH,
    THREAD_RECEIPTS,
)  # options that are only on or off


@dataclass(frozen=True)
class ModeratorOption:
    """One of the moderator's options, declared as the engine declares a ruleset's
    (`engine.core.OptionSpec`): its default and help, and `coerce`, which gives the value as
    stored (a string) or raises OptionValueError with a sentence for the host."""

    name: str
    default: str
    help: str
    coerce: Callable[[str], str]


def _on_off(name: str) -> Callable[[str], str]:
    """The one on/off vocabulary (`engine.core.parse_on_off`), stored as `on` or `off`."""

    def coerce(raw: str) -> str:
        value = parse_on_off(raw)
        if value is None:
            raise OptionValueError.of(
                "Option %(name)s takes on or off, not %(raw)s.", name=name, raw=repr(raw)
            )
        return "on" if value else "off"

    return coerce


def _reminders(raw: str) -> str:
    """`on`, `off` (the on/off vocabulary) or the reminder times themselves (`12h,30m`)."""
    switch = parse_on_off(raw)
    if switch is not None:
        return "on" if switch else "off"
    reminder_offsets(raw)
    return raw.strip().lower()


def _tally_every(raw: str) -> str:
    """A duration, or off (the on/off vocabulary; `on` alone says no rhythm)."""
    if parse_on_off(raw) is False:
        return "off"
    tally_interval(raw)
    return raw.strip().lower()


def _spectators(raw: str) -> str:
    mode = raw.strip().lower()
    if parse_on_off(mode) is False:
        return "off"
    if mode not in SPECTATOR_MODES:
        raise OptionValueError.of(
            "Option spectators takes off, dead or all, not %(raw)s.", raw=repr(raw)
        )
    return mode


def _votes(raw: str) -> str:
    channel = raw.strip().lower()
    if channel not in VOTE_CHANNELS:
        raise OptionValueError.of(
            "Option votes takes mail, thread or both, not %(raw)s.", raw=repr(raw)
        )
    return channel


def _tally_after_votes(raw: str) -> str:
    """A whole number of votes, or off."""
    if parse_on_off(raw) is False:
        return "off"
    if not raw.strip().isdigit() or int(raw) < 1:
        raise OptionValueError.of(
            "Option tally_after_votes takes a number of votes such as 5, or off; not %(raw)s.",
            raw=repr(raw),
        )
    return str(int(raw))


def _prod_below(raw: str) -> str:
    """`N@T`: N posts, T before the deadline (`3@12h`), or off."""
    if parse_on_off(raw) is False:
        return "off"
    prod_rule(raw)
    return raw.strip().lower()


def _language(raw: str) -> str:
    code = raw.strip().lower()
    problem = language_problem(code)
    if problem:
        raise OptionValueError(f"Option language: {problem}")
    return code


OPTIONS: dict[str, ModeratorOption] = {
    option.name: option
    for option in (
        ModeratorOption(
            REMINDERS,
            "on",
            "on (24h and 1h before each deadline), off, or the times, e.g. 12h,30m",
            _reminders,
        ),
        ModeratorOption(
            RESOLVE_WHEN_ALL_IN,
            "off",
            "on: resolve a phase as soon as everyone who must act has orders "
            "in (never a phase whose actors are secret)",
            _on_off(RESOLVE_WHEN_ALL_IN),
        ),
        ModeratorOption(
            WAIT_FOR_PUBLISH,
            "off",
            "on: a phase's clock starts only when the post of the phase before it is published",
            _on_off(WAIT_FOR_PUBLISH),
        ),
        ModeratorOption(
            TALLY_EVERY,
            "off",
            "a running vote count every so long in voting phases, such as 6h, or off",
            _tally_every,
        ),
        ModeratorOption(
            SPECTATORS,
            "off",
            "who gets the host's view of each resolution: off, dead (the dead players) "
            "or all (the dead and confirmed watchers, WATCH <game> by mail)",
            _spectators,
        ),
        ModeratorOption(
            VOTES,
            "mail",
            "where votes and nominations are cast: mail, thread (posts in the game's "
            "thread) or both; other orders always go by mail",
            _votes,
        ),
        ModeratorOption(
            TALLY_AFTER_VOTES,
            "off",
            "a running vote count after every so many votes, such as 5, or off",
            _tally_after_votes,
        ),
        ModeratorOption(
            PROD_BELOW,
            "off",
            "N@T, such as 3@12h: mail a prod to a player with fewer than N posts in the "
            "thread this day by T before a voting deadline; or off",
            _prod_below,
        ),
        ModeratorOption(
            THREAD_RECEIPTS,
            "off",
            "on: mail a receipt for each vote taken from the thread",
            _on_off(THREAD_RECEIPTS),
        ),
    )
}


def defaults(card: RulesetCard | None) -> dict[str, str]:
    """Every moderator option's default for a ruleset (its card may change some)."""
    own = dict(card.default_moderator_options) if card is not None else {}
    return {name: own.get(name, option.default) for name, option in OPTIONS.items()}


def split_options(
    given: Mapping[str, str], card: RulesetCard | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(moderator options with the ruleset's defaults filled in and checked, the ruleset's
    options). Every problem of the moderator's options is one sentence, all listed."""
    moderator = defaults(card)
    engine_options: dict[str, Any] = {}
    problems = []
    for key, value in given.items():
        name = key.strip().lower()
        if name not in OPTIONS and name != LANGUAGE:
            engine_options[key] = value
            continue
        try:
            moderator[name] = (_language if name == LANGUAGE else OPTIONS[name].coerce)(str(value))
        except (OptionValueError, TimeInputError) as error:
            problems.append(str(error))
    if problems:
        raise OptionValueError(" ".join(problems))
    return moderator, engine_options


def thread_language(options: Mapping[str, str]) -> str:
    """The language of the game's thread (a game made before the option: English)."""
    return options.get(LANGUAGE) or SOURCE_LANGUAGE


def is_on(options: Mapping[str, str], name: str) -> bool:
    return parse_on_off(options.get(name, OPTIONS[name].default)) is True


def tally_interval_of(options: Mapping[str, str]) -> timedelta | None:
    """A stored game's `tally_every`, from its moderator options (None: off, or unreadable)."""
    try:
        return tally_interval(options.get(TALLY_EVERY))
    except TimeInputError:
        return None


def may_resolve_early(
    options: Mapping[str, str], phase: Phase | None, players_with_orders: Collection[str]
) -> bool:
    """Early resolution (option `resolve_when_all_in`): every actor of the open phase has
    accepted orders in, the phase's actors are not secret, and the option is on."""
    if phase is None or not is_on(options, RESOLVE_WHEN_ALL_IN) or phase.secret_actors:
        return False
    return bool(phase.actors) and set(phase.actors) <= set(players_with_orders)


def spectators_mode(options: Mapping[str, str], card: RulesetCard) -> str:
    """The game's `spectators` option (`off`, `dead` or `all`) from its moderator options,
    its ruleset's default when the game was made before the option existed."""
    return str(options.get(SPECTATORS, defaults(card)[SPECTATORS])).strip().lower()


def awaits_nobody(phase: Phase | None) -> bool:
    """Whether the open phase ends at once, whatever the options: nobody in it has an order
    to give, and the engine says that is no secret (e.g. a Night 0 in which no role of the
    setup acts). Waiting out its deadline would only delay everyone."""
    return phase is not None and not phase.secret_actors and not phase.awaited


def stated_options(rules: Ruleset, state: Any, options: Mapping[str, str]) -> dict[str, Any]:
    """The options a text for the players may state as this game's rules (HELP, the
    welcome): the ruleset's public ones, as the public view gives them with their defaults,
    and who watches (`spectators`). Texts that state a rule read it from here, so no
    sentence says what this game does not do."""
    return {
        **rules.view(state, None).get("options", {}),
        SPECTATORS: spectators_mode(options, rules.card),
    }
