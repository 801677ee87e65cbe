"""Moderator options: declared once, read by the one on/off vocabulary, reminders and early
resolution (never for secret night actors)."""

import pytest

import engine
from engine.core import OFF_WORDS, ON_WORDS, Phase
from pbp.game.options import ON_OFF_OPTIONS, is_on, may_resolve_early, split_options
from pbp.game.option_values import OptionValueError

DAY = Phase("D1-vote", "vote", ("Alice", "Bruno"))
NIGHT = Phase("N1", "night", ("Alice",), secret_actors=True)


def test_split_keeps_moderator_options_and_passes_the_rest():
    moderator, engine_options = split_options({"reminders": "off", "tie": "random"})
    assert moderator == {
        "reminders": "off",
        "resolve_when_all_in": "off",
        "wait_for_publish": "off",
        "tally_every": "off",
        "spectators": "off",
        "votes": "mail",
        "tally_after_votes": "off",
        "prod_below": "off",
        "thread_receipts": "off",
    }
    assert engine_options == {"tie": "random"}


@pytest.mark.parametrize(
    "given, message",
    [
        ({"resolve_when_all_in": "sometimes"}, "takes on or off"),
        ({"reminders": "often"}, "reminders=24h,1h or reminders=off"),
        ({"wait_for_publish": "later"}, "wait_for_publish takes on or off"),
        ({"tally_every": "often"}, "tally_every takes a duration such as 6h or 30m, or off"),
        ({"spectators": "everyone"}, "spectators takes off, dead or all"),
        ({"votes": "forum"}, "votes takes mail, thread or both"),
        ({"tally_after_votes": "many"}, "tally_after_votes takes a number of votes"),
        ({"prod_below": "3"}, "prod_below takes posts@time before the deadline"),
        ({"thread_receipts": "maybe"}, "takes on or off"),
    ],
)
def test_bad_moderator_options(given, message):
    with pytest.raises(OptionValueError, match=message):
        split_options(given)


def test_spectators_default_to_the_dead_in_werewolf_and_to_nobody_elsewhere():
    """The ruleset's card changes a default (`RulesetCard.default_moderator_options`)."""
    werewolf, infiltration = engine.ruleset("werewolf").card, engine.ruleset("infiltration").card
    assert split_options({}, werewolf)[0]["spectators"] == "dead"
    assert split_options({}, infiltration)[0]["spectators"] == "off"
    assert split_options({"spectators": "ALL"}, infiltration)[0]["spectators"] == "all"


@pytest.mark.parametrize("name", ON_OFF_OPTIONS)
@pytest.mark.parametrize("word", ["none", "0", "yes", "On", "TRUE", "off"])
def test_every_on_off_option_reads_the_one_vocabulary(name, word):
    """The moderator's on/off options take what the engine's take (engine.core.parse_on_off),
    `none` included, stored as `on` or `off`."""
    moderator, _ = split_options({name: word})
    assert moderator[name] == ("on" if word.lower() in ON_WORDS else "off")
    assert is_on(moderator, name) is (word.lower() in ON_WORDS)


@pytest.mark.parametrize("word", [*ON_WORDS, *OFF_WORDS])
def test_reminders_tally_and_spectators_read_on_and_off_alike(word):
    on = word.lower() in ON_WORDS
    assert split_options({"reminders": word})[0]["reminders"] == ("on" if on else "off")
    if not on:
        assert split_options({"tally_every": word, "spectators": word})[0] == {
            **split_options({})[0],
            "tally_every": "off",
            "spectators": "off",
        }


def test_every_problem_of_the_options_is_said_at_once():
    with pytest.raises(OptionValueError) as failure:
        split_options({"resolve_when_all_in": "sometimes", "spectators": "everyone"})
    assert "resolve_when_all_in takes on or off" in str(failure.value)
    assert "spectators takes off, dead or all" in str(failure.value)


def test_early_resolution_needs_every_actor_and_the_option():
    on = {"resolve_when_all_in": "on"}
    assert may_resolve_early(on, DAY, {"Alice", "Bruno"})
    assert not may_resolve_early(on, DAY, {"Alice"})
    assert not may_resolve_early({"resolve_when_all_in": "off"}, DAY, {"Alice", "Bruno"})
    assert not may_resolve_early({}, DAY, {"Alice", "Bruno"})
    assert not may_resolve_early(on, None, set())


def test_never_early_when_the_actors_are_secret():
    """rules/werewolf.md, Phases: Nn and Nn-witch happen "so that timing reveals nothing"."""
    assert not may_resolve_early({"resolve_when_all_in": "on"}, NIGHT, {"Alice"})
