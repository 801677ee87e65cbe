"""Fixtures for the Werewolf conformance suite: the rule options it re-runs under
(tests/fixtures/option_matrix.py; docs/rules/werewolf.md, Host options)."""

from __future__ import annotations

import pytest

from tests.fixtures.option_matrix import option_sets, variant_id
from tests.werewolf import werewolf_helpers

# Every option that changes how a phase resolves, one non-default value at a time.
# (`setup_11` and `roles` only choose a new game's roles, which the scenarios name themselves.)
ONE_AT_A_TIME = [
    {"reveal_roles": True},
    {"wench_missing": "none"},
    {"bodyguard_self": "allowed"},
    {"bodyguard_repeat": "forbidden"},
    {"modkill_loses": False},
    {"wolf_tie": "random"},
]


@pytest.fixture(params=option_sets(ONE_AT_A_TIME), ids=variant_id)
def option_variant(request, monkeypatch):
    """Games built with `werewolf_helpers.game` or `werewolf_helpers.with_variant` get these
    options underneath their own."""
    monkeypatch.setattr(werewolf_helpers, "variant", dict(request.param))
    return dict(request.param)
