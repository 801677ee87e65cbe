"""Every deadline a player sees is shown in their roster time zone and in UTC (docs/design.md:
Deadlines). A game whose players all live in Australia/Sydney goes through every kind of mail
pbp sends a player — welcome, HELP, FORM, STATUS, the reply to an unknown command,
reminder, rejection, receipt, extend / pause / resume notices, the receipt of orders the
host entered, the substitute's welcome and the public notice, the modkill notice, the
report — and every time of day in every one of them must be a zoned deadline
(`Wed 2 Jan 2030, 23:00 AEDT (12:00 UTC)`) or the timestamp of a received mail."""

from __future__ import annotations

import re

from engine.seat_names import player_names
from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.game import deadlines
from pbp.host import removal
from pbp.host import orders as host_orders
from pbp.host import substitute as host_substitute
from pbp.game.notifying.reminders import queue_reminders
from pbp.game.record_parts import RosterPlayer
from tests.fixtures.text import flat
from tests.fixtures.harness import command_mail, order_mail

SYDNEY = "Australia/Sydney"
DAY = r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
ZONED = re.compile(rf"{DAY} \d{{4}}, \d{{2}}:\d{{2}} AE[DS]T \((?:{DAY} )?\d{{2}}:\d{{2}} UTC\)")
RECEIVED = re.compile(
    r"received \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC(?: \((?:%s )?\d{2}:\d{2}:\d{2} AE[DS]T\))?"
    % DAY
)
BARE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}")  # an ISO date or a time of day


def unzoned_times(body: str) -> list[str]:
    """The dates and times in `body` that are neither part of a zoned deadline nor the
    timestamp of a received mail."""
    return BARE_TIME.findall(RECEIVED.sub("", ZONED.sub("", body)))


def test_the_checker_tells_a_zoned_deadline_from_a_bare_one():
    assert unzoned_times("Deadline: Wed 2 Jan 2030, 23:00 AEDT (12:00 UTC).") == []
    assert unzoned_times("Deadline: Thu 3 Jan 2030, 09:00 AEDT (Wed 2 Jan 22:00 UTC).") == []
    assert unzoned_times("Accepted for T0-class (received 2030-01-01 12:00:00 UTC):") == []
    assert unzoned_times("The deadline is 2030-01-02 12:00 UTC.") == ["2030-01-02", "12:00"]
    assert unzoned_times("The deadline is Wed 2 Jan 2030, 12:00 UTC.") == ["12:00"]


def test_every_mail_shows_every_deadline_in_the_players_zone_and_in_utc(moderator, clock):
    names = player_names(7)
    roster = [RosterPlayer(name, f"{name.lower()}@example.org", SYDNEY) for name in names]
    game = create_game(
        moderator,
        "infiltration",
        roster,
        seed="zones",
        schedule_text="class=1d,default=1d",
        game_id="inf1",
    )
    desk = Desk(moderator)
    actor, second, third, fourth = game.phase.actors[:4]
    address = {name: f"{name.lower()}@example.org" for name in names}
    for word in ("HELP", "FORM", "STATUS", "DANCE"):
        desk.receive(command_mail(address[actor], word))
    clock.advance(hours=23, minutes=30)  # half an hour before the deadline: the 1h reminder
    assert queue_reminders(moderator) > 0
    token = game.token(actor)
    desk.receive(order_mail(address[actor], "inf1", "T0-class", token, "CLASS PILOT"))
    desk.receive(order_mail(address[actor], "inf1", "T0-class", token, "CLASS HACKER"))
    desk.receive(command_mail(address[actor], "STATUS"))
    deadlines.extend(moderator, "inf1", "1d")
    deadlines.pause(moderator, "inf1")
    deadlines.resume(moderator, "inf1")
    host_orders.submit(moderator, "inf1", second, "CLASS SNEAKER")
    host_substitute.substitute(moderator, "inf1", third, "Newcomer", "newcomer@example.org", SYDNEY)
    removal.modkill(moderator, "inf1", fourth, "left the game")
    resolve_phase(moderator, "inf1")

    rows = load(moderator, "inf1").file.outbox.all()
    assert {row["kind"] for row in rows} >= {
        "welcome",
        "help",
        "form",
        "status",
        "reminder",
        "rejection",
        "receipt",
        "notice",
        "report",
    }
    for row in rows:
        body = row["body"]
        assert unzoned_times(body) == [], f"{row['kind']} to {row['recipient']}:\n{body}"
        if "BEGIN ORDERS" in body and "paused by the host" not in body:
            assert re.search(r"Deadline: " + ZONED.pattern, body), (
                f"{row['kind']} to {row['recipient']}"
            )
    reminders = [row for row in rows if row["kind"] == "reminder"]
    assert reminders and all(
        "The deadline is Wed 2 Jan 2030, 23:00 AEDT (12:00 UTC)" in flat(r["body"])
        for r in reminders
    )
    (welcome,) = [row for row in rows if row["kind"] == "welcome" and row["recipient"] == actor]
    assert "The current deadline: Wed 2 Jan 2030, 23:00 AEDT (12:00 UTC)." in welcome["body"]
    assert "Deadlines are shown in your time zone (Australia/Sydney) and in UTC." in flat(
        welcome["body"]
    )
    resumed = [row for row in rows if row["kind"] == "notice" and "has resumed" in row["body"]]
    assert resumed and all(ZONED.search(row["body"]) for row in resumed)


def test_a_substitute_may_bring_their_own_time_zone(moderator):
    roster = [RosterPlayer(name, f"{name.lower()}@example.org", SYDNEY) for name in player_names(6)]
    game = create_game(moderator, "infiltration", roster, seed="zones", game_id="inf1")
    character = game.phase.actors[0]
    host_substitute.substitute(
        moderator, "inf1", character, "Carol", "carol@example.org", "America/New_York"
    )
    entry = load(moderator, "inf1").record.roster.of(character)
    assert entry.timezone == "America/New_York"
    (welcome,) = [
        row
        for row in load(moderator, "inf1").file.outbox.all()
        if row["kind"] == "welcome" and row["address"] == "carol@example.org"
    ]
    assert "Deadline: Wed 2 Jan 2030, 07:00 EST (12:00 UTC)." in welcome["body"]
