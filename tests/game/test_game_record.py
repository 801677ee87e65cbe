"""The typed game record (docs/design.md: Storage): it reads back exactly what a game file
holds, through a pause, a substitution and a resolution; the one writer writes only the
keys a change made; its roster answers lookups."""

from __future__ import annotations

from pbp.game import deadlines
from pbp.game.create import create_game
from pbp.game.record import GameRecord
from dataclasses import replace

from pbp.game.stored import load, record_of, save
from pbp.game.resolution import resolve_phase
from pbp.host import substitute as host_substitute
from tests.fixtures.harness import ROSTER


def test_the_record_reads_back_exactly_what_the_file_holds(moderator):
    game = create_game(moderator, "ballot", ROSTER, seed="s1", game_id="g1")
    file = moderator.folder.game("g1")
    stored = [file.record()]
    deadlines.pause(moderator, "g1")
    stored.append(file.record())
    deadlines.resume(moderator, "g1")
    host_substitute.substitute(
        moderator, "g1", ROSTER[0].name, "Carol", "carol@example.org", "Europe/Berlin"
    )
    stored.append(file.record())
    resolve_phase(moderator, "g1", game.phase.id)
    stored.append(file.record())
    for document in stored:
        assert GameRecord.from_json(document).to_json() == dict(document)
    typed = load(moderator, "g1").record
    assert typed.id == "g1" and typed.ruleset == "ballot" and typed.resolved == (game.phase.id,)


def test_the_writer_leaves_keys_written_since_the_game_was_read(moderator):
    """A change written from a game read earlier keeps what another writer stored meanwhile."""
    create_game(moderator, "ballot", ROSTER, seed="s1", game_id="g1")
    game = load(moderator, "g1")
    file = game.file
    with file.transaction():
        file.update_record({"message_key": "written meanwhile"})
        save(game, replace(game.record, reminders_sent=("g1/x",)))
    record = record_of(file)
    assert record.message_key == "written meanwhile" and record.reminders_sent == ("g1/x",)
    assert load(moderator, "g1").record == record


def test_the_roster_finds_players_by_name_address_and_zone(moderator):
    create_game(moderator, "ballot", ROSTER, seed="s1", game_id="g1")
    host_substitute.substitute(
        moderator, "g1", ROSTER[0].name, "Carol", "carol@example.org", "Europe/Berlin"
    )
    roster = load(moderator, "g1").roster
    first = ROSTER[0].name
    assert roster.by_name(first.upper()).played_by == "Carol"
    assert roster.by_address("carol@example.org").name == first
    assert roster.by_address(ROSTER[0].email) is None  # the old player's address no longer plays
    assert (
        roster.zone_of(first) == "Europe/Berlin"
        and roster.zone_of(ROSTER[1].name) == ROSTER[1].timezone
    )
    assert roster.zone_of("nobody") == ""
