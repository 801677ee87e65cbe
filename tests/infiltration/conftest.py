"""Fixtures for the Infiltration conformance suite."""
from __future__ import annotations

import pytest

# Cases that must hold whatever the host chose: each re-runs under every option setting
# that could plausibly touch it (one option changed at a time).
OPTION_SETTINGS = [
    {},
    {"alert_scope": "floor"},
    {"tie": "random"},
    {"phantom_votes": True},
    {"default_class": "sneaker"},
    {"turn_limit": 50},
]


@pytest.fixture(params=OPTION_SETTINGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def rule_options(request):
    return dict(request.param)
