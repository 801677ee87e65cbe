"""Moderator options: reminders and early resolution (never for secret night actors)."""
import pytest

from engine.core import Phase
from pbp.game.options import OptionValueError, may_resolve_early, split_options

DAY = Phase("D1-vote", "vote", ("Alice", "Bruno"))
NIGHT = Phase("N1", "night", ("Alice",), secret_actors=True)


def test_split_keeps_moderator_options_and_passes_the_rest():
    moderator, engine_options = split_options({"reminders": "off", "tie": "random"})
    assert moderator == {"reminders": "off", "resolve_when_all_in": "off", "wait_for_publish": "off",
                         "tally_every": "off", "spectators": "off"}
    assert engine_options == {"tie": "random"}


@pytest.mark.parametrize("given, message", [
    ({"resolve_when_all_in": "sometimes"}, "takes on or off"),
    ({"reminders": "often"}, "reminders=24h,1h or reminders=off"),
    ({"wait_for_publish": "later"}, "wait_for_publish takes on or off"),
    ({"tally_every": "often"}, "tally_every takes a duration such as 6h or 30m, or off"),
    ({"spectators": "everyone"}, "spectators takes off, dead or all"),
])
def test_bad_moderator_options(given, message):
    with pytest.raises(OptionValueError, match=message):
        split_options(given)


def test_spectators_default_to_the_dead_in_werewolf_and_to_nobody_elsewhere():
    assert split_options({}, "werewolf")[0]["spectators"] == "dead"
    assert split_options({}, "infiltration")[0]["spectators"] == "off"
    assert split_options({"spectators": "ALL"}, "infiltration")[0]["spectators"] == "all"


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
