"""The corpus's games, played once per session and language (tests/clients/grounds.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.clients.grounds import Ground, build_grounds


@pytest.fixture(scope="session")
def grounds_in(tmp_path_factory) -> Callable[[str], dict[str, Ground]]:
    """The grounds whose players read pbp's mail in a language, played the first time
    that language is asked for."""
    built: dict[str, dict[str, Ground]] = {}

    def grounds(language: str) -> dict[str, Ground]:
        if language not in built:
            built[language] = build_grounds(
                tmp_path_factory.mktemp(f"client-grounds-{language}"), language
            )
        return built[language]

    return grounds


@pytest.fixture(scope="session")
def client_grounds(grounds_in) -> dict[str, Ground]:
    return grounds_in("en")
