"""The per-game option `wait_for_publish` (docs/design.md, Public posts: "the schedule does not
wait for the host's approval unless the game sets `wait_for_publish`"; pbp.game.deadlines).

With it on, the phase a resolution opens takes orders at once but its deadline is set only
when that resolution's public post is published, and then it has its full length from that
moment; with it off (the default) the deadline is set at the resolution, as before."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from pbp.timezones import as_utc, to_text
from pbp.cli import main
from pbp.daemon.cycle import Cycle
from pbp.daemon.wake_up import next_wake_up
from pbp.forum.publishing import publish
from pbp.forum.publishing import review
from pbp.storage.drafts import DraftBook
from pbp.forum.config import load_forum_settings
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import due_games, resolve_phase
from pbp.game import resolution
from pbp.host import orders as host_orders
from pbp.composition import ComposedModerator
from pbp.game.clock import UNSET_DEADLINE, awaited_post
from pbp.game.record import GameRecord
from pbp.game.record_parts import Roster
from pbp.game.deadlines import clock_waits, start_clocks
from pbp.game.notifying.reminders import queue_reminders
from pbp.game.record_parts import RosterPlayer
from pbp.settings import load_settings
from pbp.mail.transport import open_mailbox, open_sender

from tests.fixtures.clocks import Clock
from tests.forum.conftest import ROSTER, stored

MOVEMENT = timedelta(hours=6)
SCHEDULE = "class=1h,movement=6h,decision=12h"


# --------------------------------------------------------------------------- through the CLI
@pytest.fixture
def site(tmp_path, monkeypatch, capsys):
    """`pbp init` settings (files publisher) and a roster; PBP_SETTINGS points at them."""
    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", str(tmp_path / "data")]) == 0
    (tmp_path / "roster.csv").write_text(ROSTER)
    monkeypatch.setenv("PBP_SETTINGS", str(settings))
    capsys.readouterr()
    return tmp_path


def new_game(site, *options: str) -> None:
    extra = [arg for option in options for arg in ("--option", option)]
    assert (
        main(
            [
                "new-game",
                "--ruleset",
                "infiltration",
                "--roster",
                str(site / "roster.csv"),
                "--id",
                "inf1",
                "--seed",
                "7",
                "--schedule",
                SCHEDULE,
                "--no-send",
                *extra,
            ]
        )
        == 0
    )


def record(site) -> GameRecord:
    moderator, game = stored(site)
    with moderator:
        return game.record


def outbox(site, kind: str) -> list[dict]:
    moderator, game = stored(site)
    with moderator:
        return [dict(row) for row in game.file.outbox.all() if row["kind"] == kind]


def between(text: str, earliest: datetime, latest: datetime) -> bool:
    moment = as_utc(text)
    return earliest.replace(microsecond=0) <= moment <= latest


def test_the_next_deadline_is_set_only_when_pbp_publish_publishes_the_post(site, capsys):
    new_game(site, "wait_for_publish=on")
    assert main(["advance", "inf1"]) == 0
    waiting = record(site)
    assert waiting.phase_id == "T1-movement" and waiting.deadline == ""
    assert awaited_post(waiting) == "T0-class"
    report = next(r for r in outbox(site, "report") if r["recipient"] == "Alice")
    assert f"Deadline: {UNSET_DEADLINE}." in " ".join(
        report["body"].split()
    )  # the form, not a wrong time

    capsys.readouterr()
    assert main(["status", "inf1"]) == 0
    assert (
        "phase T1-movement, deadline not set yet: the clock starts when the public post of T0-class "
        "is published"
    ) in capsys.readouterr().out
    assert main(["orders", "inf1"]) == 0
    assert "deadline not set yet" in capsys.readouterr().out

    assert main(["publish"]) == 0  # not approved: nothing goes out, the clock still waits
    assert "Published 0 post(s)." in capsys.readouterr().out
    assert record(site).deadline == ""

    assert main(["draft", "approve", "inf1", "T0-class"]) == 0
    assert record(site).deadline == ""  # approval alone starts nothing: publishing does
    before = datetime.now(timezone.utc)
    assert main(["publish"]) == 0
    after = datetime.now(timezone.utc)
    out = capsys.readouterr().out
    assert "inf1 T0-class: published" in out and "inf1 T1-movement: the clock has started" in out
    started = record(site)
    assert between(
        started.deadline, before + MOVEMENT, after + MOVEMENT
    )  # full length from publishing
    assert between(started.opened, before, after)
    assert awaited_post(started) is None
    notices = [
        r for r in outbox(site, "notice") if "Turn 1 — movement: the deadline is set." in r["body"]
    ]
    assert len(notices) == 6 and all(r["status"] == "sent" for r in notices)
    assert all(UNSET_DEADLINE not in r["body"] for r in notices)


def test_without_the_option_the_deadline_is_set_at_the_resolution(site):
    new_game(site)
    before = datetime.now(timezone.utc)
    assert main(["advance", "inf1"]) == 0
    after = datetime.now(timezone.utc)
    game = record(site)
    assert game.moderator_options["wait_for_publish"] == "off"
    assert between(game.deadline, before + MOVEMENT, after + MOVEMENT)
    assert awaited_post(game) is None
    report = next(r for r in outbox(site, "report") if r["recipient"] == "Alice")
    assert UNSET_DEADLINE not in " ".join(report["body"].split())


def test_switching_the_option_off_starts_a_waiting_clock_at_once(site, capsys):
    new_game(site, "wait_for_publish=on")
    assert main(["advance", "inf1"]) == 0
    before = datetime.now(timezone.utc)
    capsys.readouterr()
    assert main(["options", "inf1", "wait_for_publish=off"]) == 0
    out = capsys.readouterr().out
    assert "wait_for_publish=off" in out and "Deadline notices sent: 6;" in out
    game = record(site)
    assert between(game.deadline, before + MOVEMENT, datetime.now(timezone.utc) + MOVEMENT)
    assert awaited_post(game) is None
    assert any(
        "no longer waits for the public post of Turn 0 — class" in r["body"]
        for r in outbox(site, "notice")
    )
    assert main(["options", "inf1", "wait_for_publish=perhaps"]) == 2
    assert "wait_for_publish takes on or off" in capsys.readouterr().err


def test_extend_while_waiting_sets_the_deadline_from_now_and_ends_the_wait(site):
    new_game(site, "wait_for_publish=on")
    assert main(["advance", "inf1"]) == 0
    before = datetime.now(timezone.utc)
    assert main(["extend", "inf1", "3h", "--no-send"]) == 0
    game = record(site)
    assert between(
        game.deadline, before + timedelta(hours=3), datetime.now(timezone.utc) + timedelta(hours=3)
    )
    assert awaited_post(game) is None


def test_pause_and_resume_keep_the_wait_and_a_post_published_meanwhile_starts_the_clock(
    site, capsys
):
    new_game(site, "wait_for_publish=on")
    assert main(["advance", "inf1"]) == 0
    assert main(["pause", "inf1", "--no-send"]) == 0
    assert (
        main(["resume", "inf1", "--no-send"]) == 0
    )  # the post is still unpublished: it waits again
    assert f"the deadline is {UNSET_DEADLINE}" in capsys.readouterr().out
    assert record(site).deadline == "" and awaited_post(record(site)) == "T0-class"

    assert main(["pause", "inf1", "--no-send"]) == 0
    assert main(["draft", "approve", "inf1", "T0-class"]) == 0
    assert main(["publish"]) == 0
    assert (
        "the clock has started" not in capsys.readouterr().out
    )  # a paused game's clock stays stopped
    assert record(site).deadline == ""
    before = datetime.now(timezone.utc)
    assert main(["resume", "inf1", "--no-send"]) == 0
    game = record(site)
    assert between(game.deadline, before + MOVEMENT, datetime.now(timezone.utc) + MOVEMENT)
    assert awaited_post(game) is None and not game.paused


# --------------------------------------------------------------------------- with a clock the test moves
ENTRIES = [
    RosterPlayer(name, f"{name.lower()}@example.org")
    for name in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid")
]


@pytest.fixture
def moderator(site):
    clock = Clock()
    with ComposedModerator(load_settings(str(site / "pbp.ini")), clock=clock) as mod:
        mod.test_clock = clock
        yield mod


def publish_all(moderator, game_id: str = "inf1") -> list[dict]:
    publisher = publish.make_publisher(load_forum_settings(moderator.settings))
    return publish.publish_game(load(moderator, game_id), publisher)


def test_a_waiting_phase_is_neither_due_nor_reminded_nor_resolved_early_nor_an_alarm(moderator):
    create_game(
        moderator,
        "infiltration",
        ENTRIES,
        seed="7",
        schedule_text=SCHEDULE,
        game_id="inf1",
        options={"wait_for_publish": "on", "resolve_when_all_in": "on"},
    )
    assert resolve_phase(moderator, "inf1").next_phase == "T1-movement"
    moderator.test_clock.advance(days=3)  # far past any deadline the phase could have had
    assert due_games(moderator) == []
    assert queue_reminders(moderator) == 0
    for name in load(moderator, "inf1").phase.actors:  # every order in: still not resolved early
        host_orders.submit(moderator, "inf1", name, "STAY")
    assert resolution.resolve_all_in(moderator) == []
    wake = next_wake_up(moderator.folder, moderator.clock())
    assert wake is None or "inf1" not in wake.reason

    review.approve(load(moderator, "inf1"), "T0-class")
    assert [row.phase for row in publish_all(moderator)] == ["T0-class"]
    assert start_clocks(moderator) == [
        f"inf1 T1-movement: clock started, deadline {to_text(moderator.clock() + MOVEMENT)}"
    ]
    game = load(moderator, "inf1")
    assert game.record.deadline == to_text(moderator.clock() + MOVEMENT)
    assert game.deadline_text("Alice") != UNSET_DEADLINE
    assert start_clocks(moderator) == []  # a clock starts once
    wake = next_wake_up(moderator.folder, moderator.clock())
    assert wake.reason in ("reminders of inf1 T1-movement", "deadline of inf1 T1-movement")
    # orders stand: all in, so early resolution applies now that the clock runs
    assert [s.phase for s in resolution.resolve_all_in(moderator)] == ["T1-movement"]


def test_the_cycle_of_pbp_run_starts_the_clock_when_it_publishes_the_approved_post(moderator):
    create_game(
        moderator,
        "infiltration",
        ENTRIES,
        seed="7",
        schedule_text=SCHEDULE,
        game_id="inf1",
        options={"wait_for_publish": "on"},
    )
    settings = moderator.settings
    cycle = Cycle(moderator, open_mailbox(settings), open_sender(settings))
    try:
        moderator.test_clock.advance(hours=1)  # T0-class's deadline
        report = cycle.turn()
        assert [s.phase for s in report.resolutions] == ["T0-class"]
        assert load(moderator, "inf1").record.deadline == ""
        moderator.test_clock.advance(hours=10)
        assert cycle.turn().resolutions == [] and load(moderator, "inf1").record.deadline == ""

        review.approve(load(moderator, "inf1"), "T0-class")  # e.g. APPROVE by mail
        report = cycle.turn()
        assert any("T0-class: published" in event for event in report.forum_events)
        assert any("inf1 T1-movement: clock started" in event for event in report.forum_events)
        assert load(moderator, "inf1").record.deadline == to_text(moderator.clock() + MOVEMENT)
        assert DraftBook(load(moderator, "inf1").file).get("T0-class").status == "published"
        wake = next_wake_up(moderator.folder, moderator.clock())
        assert wake.when <= moderator.clock() + MOVEMENT and "inf1 T1-movement" in wake.reason
    finally:
        cycle.close()


def test_a_resolution_with_no_public_post_does_not_wait():
    """rules/werewolf.md, Night: nothing is published between `Nn` and `Nn-witch`, so there
    is no post to wait for; a game that is over has no next clock at all."""
    from engine.core import Phase

    witch = Phase("N1-witch", "witch", ("Alice",))
    on = {"wait_for_publish": "on"}
    assert clock_waits(on, witch, [{"kind": "death", "data": {}}])
    assert not clock_waits(on, witch, [])
    assert not clock_waits(on, None, [{"kind": "death", "data": {}}])
    assert not clock_waits({"wait_for_publish": "off"}, witch, [{"kind": "death", "data": {}}])
    assert not clock_waits({}, witch, [{"kind": "death", "data": {}}])  # default off
    waiting = GameRecord(
        "g",
        "werewolf",
        "1",
        Roster(()),
        {},
        {},
        {},
        phase_id="D1-vote",
        opened="",
        deadline="",
        resolved=(),
        created="",
        clock_waits_for={"phase": "D1-vote", "post": "N1"},
    )
    assert awaited_post(waiting) == "N1"
    stale = replace(waiting, phase_id="D2-vote")
    assert awaited_post(stale) is None  # the host advanced past the waiting phase
