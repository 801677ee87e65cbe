"""A host kill tells its victim as the rules tell any death (docs/design.md: Command line,
`pbp modkill`): whoever died of it gets the ruleset's own last report, with "You died" and
their private news (Infiltration's own death notice included); every other player gets
the host's notice with the public events."""

from __future__ import annotations

from pbp.game.create import create_game
from pbp.game.record_parts import RosterPlayer
from pbp.game.stored import load
from pbp.host import removal

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
ROSTER = [RosterPlayer(name, f"{name.lower()}@example.org") for name in NAMES]


def mail_after(moderator, game_id: str, count: int) -> list[dict]:
    return [dict(row) for row in load(moderator, game_id).file.outbox.all()[count:]]


def test_a_werewolf_player_removed_by_the_host_gets_their_own_last_report(moderator):
    create_game(
        moderator,
        "werewolf",
        ROSTER,
        seed="s3",
        game_id="ww1",
        options={
            "roles": "werewolf,werewolf,seer,villager,villager,witch,bodyguard,villager",
            "spectators": "dead",
        },
    )
    before = len(load(moderator, "ww1").file.outbox)
    removal.modkill(moderator, "ww1", "Farid", "inactive for two days")
    rows = mail_after(moderator, "ww1", before)
    (victim,) = [row for row in rows if row["recipient"] == "Farid"]
    assert victim["kind"] == "report"
    assert victim["subject"].endswith(": you died") and "is over" not in victim["subject"]
    assert "You died." in victim["body"] and "inactive for two days" in victim["body"]
    assert "From now on you watch" in victim["body"]  # option spectators=dead
    others = [row for row in rows if row["recipient"] != "Farid"]
    assert sorted(row["recipient"] for row in others) == sorted(set(NAMES) - {"Farid"})
    assert all(
        row["kind"] == "notice" and "The host has removed Farid" in row["body"] for row in others
    )


def test_an_infiltration_character_removed_by_the_host_hears_of_their_own_death(moderator):
    create_game(moderator, "infiltration", ROSTER[:6], seed="7", game_id="inf1")
    before = len(load(moderator, "inf1").file.outbox)
    removal.modkill(moderator, "inf1", "Bruno", "left the game")
    rows = mail_after(moderator, "inf1", before)
    (victim,) = [row for row in rows if row["recipient"] == "Bruno"]
    assert victim["kind"] == "report"
    assert "You died on turn 0" in victim["body"]
    assert "left the game" in victim["body"]
    assert all(row["kind"] == "notice" for row in rows if row["recipient"] != "Bruno")
