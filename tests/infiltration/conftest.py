"""Fixtures for the Infiltration conformance suite: the rule options it re-runs under
(tests/fixtures/option_matrix.py; docs/rules/infiltration.md, Host options)."""

from __future__ import annotations

import pytest

from tests.fixtures.option_matrix import option_sets, variant_id
from tests.infiltration import scenario

# Every option that changes how a turn resolves, one non-default value at a time.
# (`reds` and `map` only shape a new game's cast and map, which the scenarios set themselves.)
ONE_AT_A_TIME = [
    {"alert_scope": "floor"},
    {"tie": "random"},
    {"phantom_votes": True},
    {"default_class": "hacker"},
    {"default_class": "sneaker"},
    {"turn_limit": 50},
]


@pytest.fixture(params=option_sets(ONE_AT_A_TIME), ids=variant_id)
def option_variant(request, monkeypatch):
    """Scenarios built with `scenario.make_state` or `scenario.with_variant` get these
    options underneath their own."""
    monkeypatch.setattr(scenario, "variant", dict(request.param))
    return dict(request.param)


@pytest.fixture
def rule_options(option_variant):
    """The options of the variant the test runs under, for tests that pass them on."""
    return dict(option_variant)
