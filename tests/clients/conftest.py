"""The corpus's games, played once per session (tests/clients/grounds.py)."""
from __future__ import annotations

import pytest

from tests.clients.grounds import Ground, build_grounds


@pytest.fixture(scope="session")
def client_grounds(tmp_path_factory) -> dict[str, Ground]:
    return build_grounds(tmp_path_factory.mktemp("client-grounds"))
