"""Each host command on a game of the toy Ballot ruleset, through the real order desk,
games service, outbox and storage (mail stays in memory; the mail-server tests are in
tests/daemon/test_mail_commands.py)."""

from datetime import timedelta

import pytest

from pbp.desk import Desk
from pbp.errors import UserError
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import resolve_due
from pbp.game import deadlines
from pbp.game import resolution
from pbp.host.removal import modkill
from pbp.host import orders as host_orders
from pbp.host import replay as host_replay
from pbp.host import substitute as host_substitute
from pbp.game.checkpoints import state_digest
from tests.fixtures.harness import ROSTER, order_mail


def start(moderator, **options):
    return create_game(
        moderator, "ballot", ROSTER, seed="s1", options=options or None, game_id="g1"
    )


def mails(moderator, kind=None, recipient=None):
    rows = load(moderator, "g1").file.outbox.all()
    return [
        r
        for r in rows
        if (kind is None or r["kind"] == kind)
        and (recipient is None or r["recipient"] == recipient)
    ]


def test_orders_overview_shows_who_sent_what_and_who_did_not(moderator):
    game = start(moderator)
    Desk(moderator).receive(
        order_mail("alice@example.org", "g1", "D1-vote", game.token("Alice"), "VOTE Bruno")
    )
    host_orders.submit(
        moderator, "g1", "Chloe", "BEGIN ORDERS g1 D1-vote\nTOKEN: x\nVOTE Dmitri\nEND ORDERS\n"
    )
    text = host_orders.orders_overview(moderator, "g1")
    assert "Orders in (2 of 4)" in text
    assert "Alice, received 2030-01-01 12:00:00 UTC:\n      VOTE Bruno" in text
    assert (
        "Chloe, received 2030-01-01 12:00:00 UTC (entered by the host):\n      VOTE Dmitri" in text
    )
    assert "No orders yet (2): Bruno, Dmitri" in text


def test_orders_overview_flags_a_split_werewolf_pack(moderator, clock):
    """rules/werewolf.md, Werewolves: the host is told when the pack's KILLs, as they
    stand, do not agree (nobody would be killed); an agreeing pack gets no note."""
    from pbp.game.record_parts import RosterPlayer

    names = ["Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro"]
    roster = [RosterPlayer(n, f"{n.lower()}@example.org") for n in names]
    game = create_game(
        moderator,
        "werewolf",
        roster,
        seed="3",
        game_id="w1",
        options={
            "roles": "werewolf,werewolf,villager,villager,villager,villager,villager,villager"
        },
    )
    for _ in ("N0", "D1-nominate"):
        clock.advance(days=3)
        resolve_due(moderator)
    assert load(moderator, "w1").phase.id == "N1"
    wolves = [c.name for c in game.state.characters if c.role == "werewolf"]
    villagers = [c.name for c in game.state.characters if c.role == "villager"]
    host_orders.submit(moderator, "w1", wolves[0], f"KILL {villagers[0]}")
    host_orders.submit(moderator, "w1", wolves[1], f"KILL {villagers[1]}")
    text = host_orders.orders_overview(moderator, "w1")
    assert (
        f"Note: The pack is split ({wolves[0]} → {villagers[0]}; {wolves[1]} → {villagers[1]}): "
        "as things stand nobody is killed."
    ) in text
    host_orders.submit(moderator, "w1", wolves[1], f"KILL {villagers[0]}")
    assert "Note:" not in host_orders.orders_overview(moderator, "w1")


def test_extend_by_duration_and_to_an_absolute_time_tells_players(moderator, clock):
    start(moderator)
    before = load(moderator, "g1").record.deadline
    assert before == "2030-01-03T12:00:00+00:00"
    deadlines.extend(moderator, "g1", "1d12h")
    assert load(moderator, "g1").record.deadline == "2030-01-05T00:00:00+00:00"
    deadlines.extend(moderator, "g1", "2030-01-06 09:00 America/New_York")
    assert load(moderator, "g1").record.deadline == "2030-01-06T14:00:00+00:00"
    notices = mails(moderator, "notice", "Alice")
    assert "The new deadline is Sun 6 Jan 2030, 14:00 UTC." in notices[-1]["body"]
    with pytest.raises(UserError, match="neither a duration"):
        deadlines.extend(moderator, "g1", "later")
    with pytest.raises(UserError, match="in the past"):
        deadlines.extend(moderator, "g1", "2029-01-01 00:00 UTC")


def test_a_paused_game_resolves_nothing_at_its_old_deadline_and_resumes_with_the_time_left(
    moderator, clock
):
    start(moderator)
    clock.advance(hours=12)  # 36 hours left
    assert deadlines.pause(moderator, "g1") == timedelta(hours=36)
    assert "is paused by the host" in mails(moderator, "notice", "Bruno")[-1]["body"]
    clock.advance(days=5)  # far past the old deadline
    assert resolve_due(moderator) == []
    assert load(moderator, "g1").record.phase_id == "D1-vote"
    assert "PAUSED with 1 day 12 hours left" in host_orders.orders_overview(moderator, "g1")
    deadline = deadlines.resume(moderator, "g1")
    assert deadline == clock() + timedelta(hours=36)
    assert "has resumed" in mails(moderator, "notice", "Bruno")[-1]["body"]
    clock.advance(hours=35)
    assert resolve_due(moderator) == []
    clock.advance(hours=1)
    assert [s.phase for s in resolve_due(moderator)] == ["D1-vote"]


def test_pause_and_resume_keep_the_time_left_to_the_microsecond(moderator, clock):
    """A pause taken between two seconds loses no part of the time left: the resumed
    deadline is the old one moved on by exactly the pause (docs/design.md: Deadlines)."""
    from pbp.timezones import as_utc

    start(moderator)
    deadline = as_utc(load(moderator, "g1").record.deadline)
    clock.advance(hours=12, microseconds=400_000)
    assert deadlines.pause(moderator, "g1") == deadline - clock()
    clock.advance(days=1)
    assert deadlines.resume(moderator, "g1") == deadline + timedelta(days=1)
    assert as_utc(load(moderator, "g1").record.deadline) == deadline + timedelta(days=1)


def test_pause_and_resume_refuse_the_wrong_state(moderator):
    start(moderator)
    with pytest.raises(UserError, match="is not paused"):
        deadlines.resume(moderator, "g1")
    deadlines.pause(moderator, "g1")
    with pytest.raises(UserError, match="already paused"):
        deadlines.pause(moderator, "g1")
    with pytest.raises(UserError, match="resume it first"):
        deadlines.extend(moderator, "g1", "1h")


def test_substitute_old_token_refused_new_token_accepted(moderator):
    game = start(moderator)
    old_token = game.token("Chloe")
    new_token = host_substitute.substitute(moderator, "g1", "chloe", "Carol", "Carol@Example.org")
    assert new_token != old_token
    desk = Desk(moderator)
    # the old player's address is no longer on the roster: no answer, no change
    assert (
        desk.receive(order_mail("chloe@example.org", "g1", "D1-vote", new_token, "VOTE Bruno"))
        == "rejected"
    )
    # the newcomer with the old token is refused, with the reason
    assert (
        desk.receive(order_mail("carol@example.org", "g1", "D1-vote", old_token, "VOTE Bruno"))
        == "rejected"
    )
    assert "the TOKEN is not your token" in mails(moderator, "rejection", "Chloe")[-1]["body"]
    assert load(moderator, "g1").latest_orders("D1-vote") == {}
    # the newcomer with the new token is accepted for the character Chloe
    assert (
        desk.receive(order_mail("carol@example.org", "g1", "D1-vote", new_token, "VOTE Bruno"))
        == "processed"
    )
    assert load(moderator, "g1").latest_orders("D1-vote")["Chloe"].text == "VOTE Bruno"
    welcome = [
        r for r in mails(moderator, "welcome", "Chloe") if r["address"] == "carol@example.org"
    ][0]
    assert new_token in welcome["body"] and old_token not in welcome["body"]
    assert welcome["body"].startswith("Hello Carol, you now play Chloe.\n\nYou take over Chloe")
    assert "Chloe was told nothing privately so far" in welcome["body"]
    assert welcome["body"].count("BEGIN ORDERS") == 1  # only the live form
    public = [r for r in mails(moderator, "notice") if "has a substitute" in r["subject"]]
    assert sorted(r["recipient"] for r in public) == ["Alice", "Bruno", "Dmitri"]
    assert "From now on Chloe is played by Carol" in public[0]["body"]
    assert all("carol@example.org" not in r["body"] for r in public)


def test_substitute_refuses_unknown_players_and_taken_addresses(moderator):
    start(moderator)
    with pytest.raises(UserError, match="no player 'Zed'"):
        host_substitute.substitute(moderator, "g1", "Zed", "Carol", "carol@example.org")
    with pytest.raises(UserError, match="already on the roster"):
        host_substitute.substitute(moderator, "g1", "Chloe", "Al", "alice@example.org")
    with pytest.raises(UserError, match="not an email address"):
        host_substitute.substitute(moderator, "g1", "Chloe", "Carol", "carol")


def test_submit_goes_through_the_same_parser(moderator):
    start(moderator)
    with pytest.raises(UserError, match='Line 1: "VOTE Alice" — vote for another living player'):
        host_orders.submit(moderator, "g1", "Alice", "VOTE Alice\n")
    assert host_orders.submit(moderator, "g1", "alice", "# for Alice\nvote Bruno\n") == [
        "VOTE Bruno"
    ]
    receipt = mails(moderator, "receipt", "Alice")[-1]
    assert "The host entered orders for you" in receipt["body"] and "VOTE Bruno" in receipt["body"]
    with pytest.raises(UserError, match="no player or NPC 'Nobody'"):
        host_orders.submit(moderator, "g1", "Nobody", "VOTE Bruno")


def test_modkill_is_announced_to_everyone_with_the_reason(moderator):
    start(moderator)
    public = modkill(moderator, "g1", "Dmitri", "broke the silence")
    assert public == ["modkill: player Dmitri; reason broke the silence"]
    game = load(moderator, "g1")
    assert "Dmitri" not in game.phase.actors
    notices = [r for r in mails(moderator, "notice") if "removed Dmitri" in r["subject"]]
    assert sorted(r["recipient"] for r in notices) == ["Alice", "Bruno", "Chloe"]
    (last,) = mails(moderator, "report", "Dmitri")  # the victim gets the ruleset's report
    assert "reason broke the silence" in last["body"]
    assert "Reason: broke the silence" in notices[0]["body"]
    assert game.record.host_actions[-1].kind == "host_kill"


def test_replay_reproduces_the_game_and_detects_a_hand_altered_state(moderator):
    game = start(moderator)
    desk = Desk(moderator)
    desk.receive(
        order_mail("alice@example.org", "g1", "D1-vote", game.token("Alice"), "VOTE Bruno")
    )
    modkill(moderator, "g1", "Dmitri", "rules")
    host_orders.submit(moderator, "g1", "Chloe", "VOTE Bruno")
    from pbp.game.resolution import resolve_phase

    resolve_phase(moderator, "g1", "D1-vote")
    report = host_replay.replay_game(moderator, "g1")
    assert report.reproduced and report.steps == 2
    # the host edits the stored state by hand: Bruno is back among the living
    file = load(moderator, "g1").file
    record = file.record()
    altered = {**record["state"], "alive": sorted([*record["state"]["alive"], "Bruno"])}
    file.update_record({"state": altered})
    report = host_replay.replay_game(moderator, "g1")
    assert not report.reproduced
    assert report.divergence.label == "the current state" and report.divergence.path.startswith(
        ".alive"
    )
    # and an altered history is found at the first step that differs
    checkpoints = record["checkpoints"]
    checkpoints[1] = {**checkpoints[1], "digest": state_digest({"forged": True})}
    file.update_record({"state": record["state"], "checkpoints": checkpoints})
    report = host_replay.replay_game(moderator, "g1")
    assert report.divergence.label == "host kill of Dmitri in D1-vote"


def test_resolve_when_all_in_resolves_on_the_last_order(moderator):
    game = start(moderator, resolve_when_all_in="on")
    desk = Desk(moderator)
    for name, target in (("Alice", "Bruno"), ("Bruno", "Chloe"), ("Chloe", "Bruno")):
        desk.receive(
            order_mail(
                f"{name.lower()}@example.org", "g1", "D1-vote", game.token(name), f"VOTE {target}"
            )
        )
        assert resolution.resolve_if_all_in(moderator, "g1") is None
    desk.receive(
        order_mail("dmitri@example.org", "g1", "D1-vote", game.token("Dmitri"), "VOTE Bruno")
    )
    summary = resolution.resolve_if_all_in(moderator, "g1")
    assert summary.phase == "D1-vote" and summary.next_phase == "D2-vote"


def test_without_the_option_a_full_set_of_orders_waits_for_the_deadline(moderator):
    game = start(moderator)
    desk = Desk(moderator)
    for name in ("Alice", "Bruno", "Chloe", "Dmitri"):
        target = "Bruno" if name != "Bruno" else "Alice"
        desk.receive(
            order_mail(
                f"{name.lower()}@example.org", "g1", "D1-vote", game.token(name), f"VOTE {target}"
            )
        )
    assert resolution.resolve_all_in(moderator) == []


def test_early_resolution_with_the_real_engines(moderator):
    """Infiltration's T0-class resolves once every player has chosen; Werewolf's N0 never
    resolves early, whatever is in, when a role of the setup acts in it (rules/werewolf.md:
    night timing must reveal nothing), and at once when none does (the setup is public)."""
    from pbp.game.record_parts import RosterPlayer

    names = ["Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro"]
    roster = [RosterPlayer(n, f"{n.lower()}@example.org") for n in names]
    inf = create_game(
        moderator,
        "infiltration",
        roster[:5],
        seed="3",
        options={"resolve_when_all_in": "on"},
        game_id="i1",
    )
    for name in inf.phase.actors:
        host_orders.submit(moderator, "i1", name, "CLASS WARRIOR")
    assert [s.phase for s in resolution.resolve_all_in(moderator)] == ["T0-class"]
    ww = create_game(
        moderator,
        "werewolf",
        roster,
        seed="3",
        game_id="w1",
        options={
            "resolve_when_all_in": "on",
            "roles": "werewolf,werewolf,seer,romantic,villager,villager,witch,villager",
        },
    )
    assert ww.phase.secret_actors
    for name in ww.phase.actors:
        host_orders.submit(moderator, "w1", name, "")
    assert resolution.resolve_if_all_in(moderator, "w1") is None
    assert load(moderator, "w1").phase.id == "N0"
    plain = create_game(moderator, "werewolf", roster, seed="3", game_id="w2")
    assert not plain.phase.secret_actors and plain.phase.awaited == ()
    summary = resolution.resolve_if_all_in(moderator, "w2")
    assert summary.phase == "N0"
    # the option is off here: the host is told why the night ended, not that orders were in
    assert summary.resolved_early() == (
        "Nobody has an order to give in w2 N0, so it is resolved at once; next phase: D1-nominate."
    )


def test_deadlines_in_forms_follow_each_players_zone_across_a_daylight_saving_change(
    moderator, clock
):
    """New York leaves daylight saving time on 2026-11-01: the same 12:00 UTC deadline reads
    08:00 EDT in phase one and 07:00 EST in phase two; Berlin (changed on 2026-10-25) and
    Sydney (changed on 2026-10-04) keep their offsets."""
    from datetime import datetime, timezone
    from pbp.game.resolution import resolve_phase
    from pbp.game.record_parts import RosterPlayer

    clock.moment = datetime(2026, 10, 30, 12, 0, tzinfo=timezone.utc)
    roster = [
        RosterPlayer("Alice", "alice@example.org", "America/New_York"),
        RosterPlayer("Bruno", "bruno@example.org", "Europe/Berlin"),
        RosterPlayer("Chloe", "chloe@example.org", "Australia/Sydney"),
        RosterPlayer("Dmitri", "dmitri@example.org", ""),
    ]
    create_game(moderator, "ballot", roster, seed="1", schedule_text="vote=1d", game_id="g1")
    game = load(moderator, "g1")
    assert game.form("Alice")["deadline"] == "Sat 31 Oct 2026, 08:00 EDT (12:00 UTC)"
    assert game.form("Bruno")["deadline"] == "Sat 31 Oct 2026, 13:00 CET (12:00 UTC)"
    assert game.form("Chloe")["deadline"] == "Sat 31 Oct 2026, 23:00 AEDT (12:00 UTC)"
    assert game.form("Dmitri")["deadline"] == "Sat 31 Oct 2026, 12:00 UTC"
    clock.moment = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
    resolve_phase(moderator, "g1")
    reports = {r["recipient"]: r["body"] for r in mails(moderator, "report")}
    assert "Deadline: Mon 2 Nov 2026, 07:00 EST (12:00 UTC)." in reports["Alice"]
    assert "Deadline: Mon 2 Nov 2026, 13:00 CET (12:00 UTC)." in reports["Bruno"]
    assert "Deadline: Mon 2 Nov 2026, 23:00 AEDT (12:00 UTC)." in reports["Chloe"]


def test_replay_of_a_game_that_a_modkill_ended(moderator):
    """A host kill that ends the game leaves a phase that was never resolved; the replay
    still reproduces it (found by `pbp replay` on a real Infiltration game)."""
    start(moderator)
    modkill(moderator, "g1", "Dmitri", "rules")
    modkill(moderator, "g1", "Chloe", "rules")
    assert load(moderator, "g1").phase is None
    assert host_replay.replay_game(moderator, "g1").reproduced
