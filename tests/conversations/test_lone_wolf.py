"""A channel needs someone to talk to (docs/design.md: What the host's fourth walk
changed): the only wolf of a setup, or the last one alive, gets no pack message form and
writes to nobody in the pack; the Masons, two of them, keep theirs."""

from __future__ import annotations

import pytest

from pbp.composition import ComposedModerator
from pbp.game.create import create_game
from pbp.game.record_parts import RosterPlayer
from pbp.game.stored import load
from pbp.host.removal import modkill
from pbp.settings import Settings
from tests.fixtures.clocks import Clock

NAMES = ["Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hugo"]


@pytest.fixture
def moderator(tmp_path):
    settings = Settings(
        data=tmp_path / "data", from_address="pbp@games.example", replies_per_sender_per_day=9
    )
    with ComposedModerator(settings, clock=Clock()) as moderator:
        yield moderator


def start(moderator, roles: str):
    roster = [RosterPlayer(name, f"{name.lower()}@example.org") for name in NAMES]
    create_game(moderator, "werewolf", roster, seed="4", options={"roles": roles}, game_id="ww1")
    return load(moderator, "ww1")


def role_of(game, role: str) -> list[str]:
    return [name for name in NAMES if game.status(name).role == role]


def welcome(game, name: str) -> str:
    return next(row["body"] for row in game.file.outbox.all() if row["recipient"] == name)


def test_the_only_wolf_of_the_setup_gets_no_pack_form(moderator):
    game = start(moderator, "werewolf,mason,mason,seer,villager,villager,villager,villager")
    (wolf,) = role_of(game, "werewolf")
    assert game.status(wolf).channels == (
        "pack",
    )  # the engine's team; the shell opens no channel of one
    assert game.shared_channels(wolf) == ()
    assert "BEGIN MESSAGE ww1 pack" not in welcome(game, wolf)
    mason = role_of(game, "mason")[0]
    assert game.shared_channels(mason) == ("masons",)
    assert "BEGIN MESSAGE ww1 masons" in welcome(game, mason)


def test_the_last_wolf_alive_loses_the_pack_form(moderator):
    game = start(moderator, "werewolf,werewolf,seer,villager,villager,villager,villager,villager")
    first, second = role_of(game, "werewolf")
    assert game.shared_channels(first) == ("pack",)
    modkill(moderator, "ww1", second, "left the game")
    assert load(moderator, "ww1").shared_channels(first) == ()
