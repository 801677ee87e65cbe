"""What the host commands tell players, checked mail by mail: a notice of a new
deadline ends in a form showing that deadline; a substitute's old address gets nothing
after the substitution, not even mail queued before it; the thread watch follows the
newcomer's forum account; reminders go only to living actors with an order to give;
early resolution never fires in a Werewolf night, and fires on the last order of a day."""

from __future__ import annotations

from pbp.desk import Desk
from pbp.forum.thread.watch import watch_thread
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.game import deadlines
from pbp.game import resolution
from pbp.host.options_change import change_options
from pbp.host.removal import modkill
from pbp.host import orders as host_orders
from pbp.host import substitute as host_substitute
from pbp.storage.outbox_queue import FAILED, QUEUED
from pbp.game.notifying.reminders import queue_reminders
from pbp.game.record_parts import RosterPlayer
from tests.fixtures.harness import ROSTER, order_mail
from pbp.daemon.outbox_sending import send_due

WEREWOLF_ROLES = "roles=werewolf,werewolf,seer,villager,villager,witch,bodyguard,villager"
NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")


def start(moderator, **options):
    return create_game(
        moderator, "ballot", ROSTER, seed="s1", options=options or None, game_id="g1"
    )


def outbox(moderator, game_id="g1"):
    return load(moderator, game_id).file.outbox.all()


def form_deadline(body: str) -> str:
    """The deadline line that introduces the order form at the end of a mail."""
    return (
        next(line for line in body.splitlines() if "Deadline:" in line)
        .split("Deadline:", 1)[1]
        .strip()
    )


def test_every_notice_ends_in_a_form_with_the_deadline_it_announces(moderator, clock):
    start(moderator)
    deadlines.extend(moderator, "g1", "1d")  # 2030-01-03 12:00 becomes 2030-01-04 12:00
    notice = [r for r in outbox(moderator) if r["recipient"] == "Alice" and r["kind"] == "notice"][
        -1
    ]
    assert "The new deadline is Fri 4 Jan 2030, 12:00 UTC." in notice["body"]
    assert form_deadline(notice["body"]) == "Fri 4 Jan 2030, 12:00 UTC."
    deadlines.pause(moderator, "g1")
    notice = [r for r in outbox(moderator) if r["recipient"] == "Alice" and r["kind"] == "notice"][
        -1
    ]
    assert form_deadline(notice["body"]) == "none while the game is paused by the host."
    clock.advance(hours=5)
    deadlines.resume(moderator, "g1")  # 2 days left, from 17:00 on
    notice = [r for r in outbox(moderator) if r["recipient"] == "Alice" and r["kind"] == "notice"][
        -1
    ]
    assert "is Fri 4 Jan 2030, 17:00 UTC." in notice["body"]
    assert form_deadline(notice["body"]) == "Fri 4 Jan 2030, 17:00 UTC."


def test_mail_queued_for_the_old_player_is_withdrawn_and_never_reaches_them(moderator, sender):
    start(moderator)
    deadlines.extend(moderator, "g1", "2h")  # queued, not sent (like `pbp extend --no-send`)
    host_substitute.substitute(moderator, "g1", "Chloe", "Carol", "carol@example.org")
    rows = outbox(moderator)
    old = [r for r in rows if r["address"] == "chloe@example.org" and r["kind"] != "goodbye"]
    assert old and all(
        r["status"] == FAILED and "handed to a substitute" in r["error"] for r in old
    )
    assert [r["status"] for r in rows if r["address"] == "carol@example.org"] == [QUEUED]
    send_due(moderator.outbox, sender)
    recipients = [message["To"] for message in sender.sent]
    assert sum("chloe@example.org" in to for to in recipients) == 1  # only the goodbye
    assert sum("carol@example.org" in to for to in recipients) == 1  # the welcome
    # every later mail of the character goes to the newcomer
    resolve_phase(moderator, "g1")
    later = [r for r in outbox(moderator) if r["recipient"] == "Chloe" and r["kind"] == "report"]
    assert [r["address"] for r in later] == ["carol@example.org"]


def test_the_thread_watch_follows_the_newcomers_forum_account(moderator):
    roster = [RosterPlayer(e.name, e.email, "", f"{e.name.lower()}_r") for e in ROSTER]
    create_game(moderator, "ballot", roster, seed="s1", game_id="g1")
    host_substitute.substitute(
        moderator, "g1", "Chloe", "Carol", "carol@example.org", forum_name="carol_r"
    )
    host_substitute.substitute(moderator, "g1", "Bruno", "Bea", "bea@example.org")
    roster = load(moderator, "g1").roster
    assert roster.of("Chloe").forum_name == "carol_r"
    assert roster.of("Chloe").replaced[-1]["forum_name"] == "chloe_r"
    assert roster.of("Bruno").forum_name == ""  # the old player's account speaks for nobody now
    from pbp.forum.thread.watch import PhaseFacts

    timeline = [PhaseFacts("D1-vote", 0.0, dead=frozenset({"Chloe", "Bruno"}))]
    comments = [
        {"id": "c1", "author": "chloe_r", "created": 10.0},
        {"id": "c2", "author": "carol_r", "created": 10.0},
        {"id": "c3", "author": "bruno_r", "created": 10.0},
    ]
    warned = watch_thread(comments, roster, timeline)
    assert [(w.comment, w.player) for w in warned] == [("c2", "Chloe")]


def werewolf(moderator, **options):
    roster = [RosterPlayer(n, f"{n.lower()}@example.org") for n in NAMES]
    option_map = dict(item.split("=", 1) for item in [WEREWOLF_ROLES])
    return create_game(
        moderator,
        "werewolf",
        roster,
        seed="3",
        options={**option_map, **options},
        schedule_text="default=1d",
        game_id="w1",
    )


def roles(moderator) -> dict[str, str]:
    state = load(moderator, "w1").record.state
    return {c["name"]: c["role"] for c in state["characters"]}


def test_reminders_in_a_werewolf_night_go_to_every_living_player_or_to_none(moderator, clock):
    """Design.md: Hostile input — "mail that reveals a role only by being sent (a night
    reminder) goes to every living player or to none"."""
    werewolf(moderator, reminders="1h")
    clock.advance(hours=23, minutes=30)  # N0: nobody has an order (no Romantic in this setup)
    assert queue_reminders(moderator) == 0
    resolve_phase(moderator, "w1")  # to D1-nominate: everybody nominates
    clock.advance(hours=23, minutes=30)
    assert queue_reminders(moderator) == len(NAMES)
    modkill(
        moderator, "w1", next(n for n, r in roles(moderator).items() if r == "villager"), "left"
    )
    resolve_phase(moderator, "w1")  # no nominations: night falls
    game = load(moderator, "w1")
    assert game.phase.id == "N1" and game.phase.secret_actors
    wolf = next(n for n, r in roles(moderator).items() if r == "werewolf")
    host_orders.submit(
        moderator, "w1", wolf, "KILL " + next(n for n, r in roles(moderator).items() if r == "seer")
    )
    clock.advance(hours=23, minutes=30)
    before = {r["message_id"] for r in outbox(moderator, "w1")}
    queue_reminders(moderator)
    new = [r for r in outbox(moderator, "w1") if r["message_id"] not in before]
    game = load(moderator, "w1")
    assert {r["recipient"] for r in new} == set(game.phase.actors) and len(new) == len(
        game.phase.actors
    )
    assert all(game.rules.view(game.state, n)["me"]["alive"] for n in game.phase.actors)
    assert (
        len({r["subject"] for r in new}) == 1
    )  # the same subject for the wolf, the seer and a villager
    # `pbp orders` still tells the host who is really awaited, and who has nothing to order
    expected = {n for n in game.phase.actors if game.phase.grammar[n] and n != wolf}
    overview = host_orders.orders_overview(moderator, "w1")
    assert (
        f"No orders yet ({len(expected)}): {', '.join(sorted(expected, key=game.phase.actors.index))}"
        in overview
    )
    idle = [n for n in game.phase.actors if not game.phase.grammar[n]]
    assert f"Nothing to order in this phase ({len(idle)}): {', '.join(idle)}" in overview


def test_no_night_reminder_once_every_night_order_is_in(moderator, clock):
    werewolf(moderator, reminders="1h")
    resolve_phase(moderator, "w1")
    modkill(
        moderator, "w1", next(n for n, r in roles(moderator).items() if r == "villager"), "left"
    )
    resolve_phase(moderator, "w1")
    resolve_phase(moderator, "w1")
    game = load(moderator, "w1")
    assert game.phase.secret_actors
    for name in game.phase.actors:
        if game.phase.grammar[name]:
            host_orders.submit(moderator, "w1", name, "")
    clock.advance(hours=23, minutes=30)
    assert queue_reminders(moderator) == 0


def test_early_resolution_never_in_a_werewolf_night_and_at_once_on_the_last_day_order(moderator):
    werewolf(moderator, resolve_when_all_in="on")
    desk = Desk(moderator)

    def everyone_orders(line_for):
        game = load(moderator, "w1")
        for name in game.phase.actors:
            line = line_for(game, name)
            if line is None:
                host_orders.submit(moderator, "w1", name, "")
            else:
                desk.receive(
                    order_mail(
                        f"{name.lower()}@example.org", "w1", game.phase.id, game.token(name), line
                    )
                )

    # No role of this setup acts in N0, which the setup shows: N0 ends at once.
    assert [s.phase for s in resolution.resolve_all_in(moderator)] == ["N0"]
    everyone_orders(lambda game, name: "NOMINATE Alice")
    assert [s.phase for s in resolution.resolve_all_in(moderator)] == ["D1-nominate"]
    everyone_orders(lambda game, name: "VOTE NO LYNCH")
    assert [s.phase for s in resolution.resolve_all_in(moderator)] == ["D1-vote"]
    for night in ("N1", "N1-witch"):
        game = load(moderator, "w1")
        assert game.phase.id == night
        everyone_orders(lambda game, name: None)
        assert (
            resolution.resolve_all_in(moderator) == [] and load(moderator, "w1").phase.id == night
        )
        resolve_phase(moderator, "w1")
    assert load(moderator, "w1").phase.id == "D2-nominate"


def test_reminders_switched_off_in_a_running_game_stop(moderator, clock):
    start(moderator, reminders="24h,1h")
    clock.advance(hours=24, minutes=30)  # 23.5 hours before the deadline: the 24h reminder
    assert queue_reminders(moderator) == len(ROSTER)
    change_options(moderator, "g1", {"reminders": "off"})
    clock.advance(hours=23)  # 30 minutes before: the 1h reminder would be due
    assert queue_reminders(moderator) == 0
    change_options(moderator, "g1", {"Reminders": "on"})
    assert queue_reminders(moderator) == len(ROSTER)
