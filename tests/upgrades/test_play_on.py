"""Every game an earlier release left in the middle goes on after an upgrade and is played
to its end by this one (docs/design.md: Releases and upgrades): the forms that release
mailed are answered and accepted, the deadlines, reminders, drafts, thread votes, watchers
and sign-ups it stored are kept."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from pbp.composition import ComposedModerator
from pbp.daemon.cycle import Cycle
from pbp.demo import _answer_mail
from pbp.demo.thread import DemoForum
from pbp.forum.thread.watch import ThreadWatch
from pbp.game.record_parts import RosterPlayer
from pbp.game.stored import load
from pbp.mail.maildir import deliver
from pbp.mail.transport import open_mailbox, open_sender
from pbp.release import DATA_FORMAT, read_stamp
from pbp.timezones import as_utc as parse_time
from pbp.settings import load_settings
from pbp.signups.starting import start_signed_up
from pbp.storage.drafts import DraftBook
from pbp.storage.open_games import open_game
from tests.fixtures.clocks import Clock
from tests.upgrades.make_fixture import PLAYERS, SEED, confirm_code, mail
from tests.upgrades.site import RELEASES, forum_for, unpack

STAMPS = {
    "data_format",
    "written_by",
    "rules_version",
    "host_token",
}  # host_token: moved from the forum table
MAX_ROUNDS = 80


def records(data):
    return {
        path.stem: json.loads(path.read_text())["game"]["1"]
        for path in sorted((data / "games").glob("*.json"))
    }


@pytest.fixture(params=RELEASES)
def fixture_site(request, tmp_path):
    settings_path = unpack(request.param, tmp_path)
    server = forum_for(settings_path)
    yield settings_path, server
    server.stop()


def test_every_game_goes_on_to_its_end_after_the_upgrade(fixture_site):
    settings_path, server = fixture_site
    settings = load_settings(str(settings_path))
    data, root = settings.data, settings.maildir_root
    before = records(data)
    clock = Clock(parse_time(before["ww1"]["opened"]))
    with ComposedModerator(settings, clock=clock) as moderator:  # the writer upgrades the folder
        assert read_stamp(data).data_format == DATA_FORMAT
        kept = data / "upgrades" / "format-1"
        assert records(kept) == before  # the copy of what the upgrade replaced
        after = records(data)
        for game_id, record in before.items():
            assert {k: v for k, v in after[game_id].items() if k not in STAMPS} == record
            assert after[game_id]["rules_version"] == 1
        assert load(moderator, "ww1").record.watchers == ("watcher@players.invalid",)
        assert load(moderator, "ww1").votes == "thread"
        assert len(DraftBook(load(moderator, "ww1").file).game_settings()["thread"]) > 0
        thread_votes = load(moderator, "ww1").file.thread_posts.all()
        assert {row["author"] for row in thread_votes if row["lines"]} == {"alice", "bruno"}
        votes = load(moderator, "ww1").file.orders.where("phase", before["ww1"]["phase_id"])
        assert {(row["player"], row["source"]) for row in votes} == {
            ("Alice", "thread"),
            ("Bruno", "thread"),
        }
        assert [e.name for e in open_game(moderator.folder, "ww2").players] == ["Alice", "Bruno"]

        cycle = Cycle(moderator, open_mailbox(settings), open_sender(settings))
        forum = DemoForum(server, settings_path, ThreadWatch())
        try:
            queued = {
                gid: [
                    r for r in load(moderator, gid).file.outbox.briefs() if r["status"] == "queued"
                ]
                for gid in ("ww1", "inf1")
            }
            assert all(queued.values())  # the old release's mail, still to send
            # The reminders the old release scheduled: an hour before the deadline.
            deadline = parse_time(before["inf1"]["deadline"])
            clock.moment = deadline - timedelta(minutes=30)
            cycle.turn()
            assert load(moderator, "inf1").record.reminders_sent
            # The sign-ups go on: Chen confirms the code the old release queued, five join.
            confirm_code(root, "chen@players.invalid", "Chen", "[ww2]")
            for name in PLAYERS[3:]:
                deliver(
                    root / "inbox",
                    mail(
                        f"{name.lower()}@players.invalid",
                        settings.from_address,
                        "join",
                        f"JOIN ww2 {name}\n",
                    ),
                )
            cycle.turn()
            for name in PLAYERS[3:]:
                confirm_code(root, f"{name.lower()}@players.invalid", name, "[ww2]")
            cycle.turn()
            assert len(open_game(moderator.folder, "ww2").players) == 8
            start_signed_up(moderator, "ww2")

            first_phase = {gid: before[gid]["phase_id"] for gid in ("ww1", "inf1")}
            answered: dict[tuple[str, str], set[str]] = {}
            heard: dict[str, set[tuple[str, str]]] = {}
            for _ in range(MAX_ROUNDS):
                cycle.turn()
                running = [load(moderator, gid) for gid in ("ww1", "inf1", "ww2")]
                running = [game for game in running if game.phase is not None]
                if not running:
                    break
                for game in running:
                    npcs = [
                        RosterPlayer(name, settings.host_address) for name in game.record.npc_names
                    ]
                    for index, entry in enumerate([*game.roster, *npcs]):
                        done = answered.setdefault((game.id, entry.name), set())
                        if forum.post_votes(moderator, game, entry, done, SEED):
                            continue
                        _answer_mail(
                            moderator,
                            game,
                            entry,
                            done,
                            heard.setdefault(entry.email, set()),
                            SEED,
                            quote=index % 2 == 1,
                        )
                cycle.turn()
                clock.moment = min(
                    game.clock.deadline for game in running if game.clock.deadline is not None
                ) + timedelta(seconds=1)
            for game_id in ("ww1", "inf1", "ww2"):
                game = load(moderator, game_id)
                assert game.record.result, f"{game_id} did not end"
            # The forms the old release mailed were answered, and the answers accepted.
            inf1 = load(moderator, "inf1")
            accepted = {
                row["player"] for row in inf1.file.orders.where("phase", first_phase["inf1"])
            }
            assert {
                "Alice",
                "Bruno",
                "Chen",
                "Dana",
                "Emeka",
                "Raiden",
            } <= accepted  # Raiden: the host, for the NPC
            ww1 = load(moderator, "ww1")
            assert ww1.file.orders.where("phase", first_phase["ww1"])
            watched = list((root / "watcher@players.invalid" / "new").iterdir())
            assert any("as the host saw it" in path.read_text() for path in watched)
        finally:
            cycle.close()
