"""One bad game never stops the others (docs/design.md: Hostile input): a game whose
resolution raises is noted as stalled and skipped, the other games resolve at their
deadlines, the daemon does not wake for the stalled deadline again and again, and
`pbp status` shows the host what happened and how to retry."""

from __future__ import annotations

from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import due_games, resolve_due
from pbp.settings import Settings
from pbp.host.status import status_text
from pbp.daemon.wake_up import next_wake_up
from tests.fixtures.harness import ROSTER, ToyModerator
from tests.fixtures.toy_ruleset import Ballot


class Broken(Ballot):
    """A ruleset with a bug: every resolution raises."""

    name = "broken"

    def resolve(self, state, orders):
        raise RuntimeError("the engine tripped over its own state")


class ModeratorWithABrokenGame(ToyModerator):
    def rules(self, name):
        return Broken() if name == "broken" else super().rules(name)


def test_a_failing_resolution_stalls_its_game_alone(tmp_path, clock):
    settings = Settings(data=tmp_path / "data", from_address="pbp@games.example")
    with ModeratorWithABrokenGame(settings, clock=clock) as moderator:
        bad = create_game(
            moderator, "broken", ROSTER, seed="s", schedule_text="vote=1h", game_id="bad1"
        )
        good = create_game(
            moderator, "ballot", ROSTER, seed="s", schedule_text="vote=1h", game_id="good1"
        )
        clock.advance(hours=1)
        (summary,) = resolve_due(moderator)
        assert summary.game == good.id
        assert load(moderator, good.id).record.resolved == ("D1-vote",)
        assert load(moderator, bad.id).record.resolved == ()  # nothing half-written
        assert due_games(moderator) == []  # the stalled phase is not retried every cycle
        wake = next_wake_up(moderator.folder, clock())
        assert wake is not None and bad.id not in wake.reason  # and is no reason to wake up
        status = status_text(moderator.folder, bad.id, moderator.rules)
        assert "RESOLUTION FAILED" in status and "the engine tripped over its own state" in status
        assert f"pbp advance {bad.id}" in status
