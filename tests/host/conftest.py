"""Fixtures for the host commands' tests: the moderator test kit (a data folder with the
toy Ballot ruleset, a clock the test moves, an in-memory sender), plus helpers to hand a
mail to the real order desk."""
from __future__ import annotations

import pytest

from pbp.ports import InboundMail, OrderBlock
from tests.moderator.conftest import ROSTER, Clock, MemorySender, ToyModerator, clock, sender  # noqa: F401
from pbp.settings import Settings


@pytest.fixture
def moderator(tmp_path, clock):
    """The moderator kit's, with a reply cap high enough for a test's many commands."""
    settings = Settings(data=tmp_path / "data", from_address="pbp@games.example", replies_per_sender_per_day=50)
    with ToyModerator(settings, clock=clock) as mod:
        yield mod


_counter = iter(range(1, 10**6))


def order_mail(sender: str, game: str, phase: str, token: str, *lines: str) -> InboundMail:
    number = next(_counter)
    return InboundMail(key=f"k{number}", sha256=f"s{number}", sender=sender, message_id=f"<m{number}@x>",
                       subject="orders", blocks=(OrderBlock(game, phase, token, tuple(lines)),))


def command_mail(sender: str, word: str) -> InboundMail:
    number = next(_counter)
    return InboundMail(key=f"k{number}", sha256=f"s{number}", sender=sender, message_id=f"<m{number}@x>",
                       subject="help", commands=(word,))
