"""Fixtures for the moderator's unit tests: a data folder with the toy ruleset, a clock
the test moves, an in-memory sender behind the MailSender port."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbp.composition import ForumModerator
from pbp.ports import MailSender
from pbp.game.record import RosterPlayer
from pbp.settings import Settings
from tests.fixtures.clocks import Clock
from tests.moderator.toy_ruleset import Ballot




class ToyModerator(ForumModerator):
    def rules(self, name):
        return Ballot() if name == "ballot" else super().rules(name)


class MemorySender(MailSender):
    """MailSender kept in memory: what would have gone out, in order."""

    def __init__(self):
        self.sent = []
        self.failures = []  # exceptions to raise on the next sends

    def send(self, message):
        if self.failures:
            raise self.failures.pop(0)
        self.sent.append(message)

    def close(self):
        pass


ROSTER = [RosterPlayer("Alice", "alice@example.org"), RosterPlayer("Bruno", "bruno@example.org"),
          RosterPlayer("Chloe", "chloe@example.org"), RosterPlayer("Dmitri", "dmitri@example.org")]


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def moderator(tmp_path: Path, clock):
    settings = Settings(data=tmp_path / "data", from_address="pbp@games.example", replies_per_sender_per_day=5)
    with ToyModerator(settings, clock=clock) as mod:
        yield mod


@pytest.fixture
def sender():
    return MemorySender()
