"""Running vote counts (docs/design.md: Public posts; rules/werewolf.md: "Accepted nominations
and votes are public as soon as they are accepted; a running tally shows each player's
latest"): the count comes from the engine's own typed orders; a `STATUS` reply carries it;
option `tally_every` drafts one on its rhythm (moved by an injected clock, never slept
for), and auto-publish `tally` publishes it through the file publisher without waiting for
the host, while every other post still waits."""

from __future__ import annotations

from datetime import timedelta
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from pbp.composition import ComposedModerator
from pbp.daemon.cycle import Cycle
from pbp.forum.publishing import publish
from pbp.forum.publishing import review
from pbp.errors import UserError
from pbp.storage.drafts import DraftBook
from pbp.forum.config import load_forum_settings
from pbp.forum.thread.running_counts import draft_due_tallies
from pbp.game.tally import due_slot, next_time
from pbp.game.option_values import tally_interval
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.game.tally import running_tally
from pbp.game.record_parts import RosterPlayer
from pbp.settings import load_settings
from pbp.timezones import TimeInputError
from pbp.mail.transport import open_mailbox, open_sender
from tests.fixtures.clocks import START, Clock

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
ROLES = "werewolf,werewolf,seer,villager,villager,witch,bodyguard,villager"


def settings_file(tmp_path: Path, auto_publish: str) -> Path:
    path = tmp_path / "pbp.ini"
    path.write_text(
        f"[pbp]\ndata = {tmp_path / 'data'}\nfrom_address = pbp@games.example\n"
        f"[forum]\npublisher = files\nposts = {tmp_path / 'posts'}\nauto_publish = {auto_publish}\n"
    )
    return path


@pytest.fixture
def table(tmp_path):
    """A Werewolf game on the Maildir transport, moved by hand to D1-nominate, whose clock
    only the test moves."""
    made = []

    def make(auto_publish="off", **options):
        clock = Clock()
        moderator = ComposedModerator(
            load_settings(str(settings_file(tmp_path, auto_publish))), clock=clock
        )
        roster = [
            RosterPlayer(name, f"{name.lower()}@example.org", "", f"u_{name.lower()}")
            for name in NAMES
        ]
        create_game(
            moderator,
            "werewolf",
            roster,
            seed="7",
            options={"roles": ROLES, **options},
            schedule_text="night0=12h,nominate=24h,vote=24h",
            game_id="ww1",
        )
        clock.advance(hours=1)
        resolve_phase(moderator, "ww1")  # N0: now in D1-nominate, opened at START + 1h
        made.append(moderator)
        return moderator, clock

    yield make
    for moderator in made:
        moderator.close()


def accept(moderator, **lines: str) -> None:
    """Accepted orders for the open phase, as the desk records them."""
    game = load(moderator, "ww1")
    with game.file.transaction():
        for player, text in lines.items():
            game.file.orders.insert(
                {
                    "phase": game.phase.id,
                    "player": player,
                    "text": text,
                    "received": "2030-01-01T00:00:00+00:00",
                    "message_id": "",
                    "mail_key": "",
                }
            )


def drafts(moderator) -> dict[str, dict]:
    return {row.phase: row for row in DraftBook(load(moderator, "ww1").file).all()}


def test_the_count_comes_from_the_engines_orders_and_shows_each_players_latest(table):
    moderator, _ = table()
    accept(moderator, Alice="NOMINATE bruno", Chloe="NOMINATE Bruno", Dmitri="NOMINATE Alice")
    accept(moderator, Alice="NOMINATE Chloe")  # a changed mind: the latest counts
    count = running_tally(load(moderator, "ww1"))
    assert count["phase"] == "Day 1 — nominations"
    assert count["rows"] == [
        {"choice": "Alice", "count": 1, "voters": ["Dmitri"]},
        {"choice": "Bruno", "count": 1, "voters": ["Chloe"]},
        {"choice": "Chloe", "count": 1, "voters": ["Alice"]},
    ]
    assert count["missing"] == ["Bruno", "Elena", "Farid", "Greta", "Hiro"]


def test_a_status_reply_carries_the_current_public_count(table, tmp_path):
    moderator, _ = table()
    accept(moderator, Alice="NOMINATE Bruno", Chloe="NOMINATE Bruno")
    game = load(moderator, "ww1")
    inbox = tmp_path / "data" / "mail" / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)
    (inbox / "new" / "status.eml").write_bytes(
        b"From: Dmitri <dmitri@example.org>\r\nTo: pbp@games.example\r\nSubject: Re: [ww1] status\r\n"
        b"Message-ID: <status-1@example.org>\r\n\r\nSTATUS\r\n"
    )
    cycle = Cycle(moderator, open_mailbox(moderator.settings), open_sender(moderator.settings))
    try:
        cycle.turn()
    finally:
        cycle.close()
    folder = tmp_path / "data" / "mail" / "dmitri@example.org" / "new"
    replies = [message_from_bytes(p.read_bytes(), policy=policy.default) for p in folder.iterdir()]
    (status,) = [m for m in replies if m["Subject"].endswith("Status")]
    text = status.get_content()
    assert "Public count so far (Day 1 — nominations" in text
    assert "  Bruno: 2 (Alice, Chloe)" in text
    assert "  No choice yet from: Bruno, Dmitri, Elena, Farid, Greta, Hiro" in text
    assert game.phase.id == "D1-nominate"


def test_tally_every_drafts_a_count_on_its_rhythm_and_never_twice(table):
    moderator, clock = table(tally_every="6h")
    accept(moderator, Alice="NOMINATE Bruno")
    assert draft_due_tallies(moderator) == []  # the phase has just opened
    clock.advance(hours=5, minutes=59)
    assert draft_due_tallies(moderator) == []
    clock.advance(minutes=1)
    assert draft_due_tallies(moderator) == [
        "ww1 D1-nominate/tally-1: running count drafted (draft)"
    ]
    assert draft_due_tallies(moderator) == []  # the same slot is never drafted twice
    clock.advance(hours=13)  # two slots passed (12h, 18h): one count, of the votes as they stand
    accept(moderator, Bruno="NOMINATE Alice")
    assert draft_due_tallies(moderator) == [
        "ww1 D1-nominate/tally-2: running count drafted (draft)"
    ]
    assert "* **Alice**: 1 (Bruno)" in drafts(moderator)["D1-nominate/tally-2"].text
    clock.advance(hours=6)  # the deadline (24h after opening): the phase's own post has the count
    assert draft_due_tallies(moderator) == []


def test_auto_publish_tally_approves_counts_but_holds_every_other_post(table, tmp_path):
    """A count approved at once still goes out in thread order: after the phase post
    before it, which waits for the host."""
    moderator, clock = table(auto_publish="tally", tally_every="6h")
    accept(moderator, Alice="NOMINATE Bruno", Chloe="NOMINATE Bruno")
    clock.advance(hours=6)
    for sub in ("new", "cur", "tmp"):
        (tmp_path / "data" / "mail" / "inbox" / sub).mkdir(parents=True, exist_ok=True)
    cycle = Cycle(moderator, open_mailbox(moderator.settings), open_sender(moderator.settings))
    try:
        report = cycle.turn()
    finally:
        cycle.close()
    rows = drafts(moderator)
    assert (rows["N0"].status, rows["D1-nominate/tally-1"].status) == ("draft", "approved")
    assert "ww1 D1-nominate/tally-1: running count drafted (approved)" in report.forum_events
    assert not (tmp_path / "posts" / "ww1").exists()
    game = load(moderator, "ww1")
    with game.file.transaction():
        review.approve(game, "N0")
    publisher = publish.make_publisher(load_forum_settings(moderator.settings))
    published = publish.publish_game(load(moderator, "ww1"), publisher)
    assert [row.phase for row in published] == ["N0", "D1-nominate/tally-1"]
    text = (tmp_path / "posts" / "ww1" / "002-D1-nominate_tally-1.md").read_text()
    assert text.startswith("ww1: Day 1 — nomination count\n")
    assert "* **Bruno**: 2 (Alice, Chloe)" in text
    assert "* No nomination yet from: Bruno, Dmitri, Elena, Farid, Greta, Hiro" in text
    assert "**Day 1 — nominations:** orders are due by Wed 2 Jan 2030, 13:00 UTC." in text


def test_the_rhythm_is_counted_from_the_phase_opening():
    opened, every = START, timedelta(hours=6)
    deadline = opened + timedelta(hours=24)
    assert due_slot(opened=opened, deadline=deadline, now=opened, every=every) is None
    assert (
        due_slot(opened=opened, deadline=deadline, now=opened + timedelta(hours=13), every=every)
        == 2
    )
    assert due_slot(opened=opened, deadline=deadline, now=deadline, every=every) is None
    assert next_time(opened=opened, deadline=deadline, now=opened, every=every) == opened + every
    assert (
        next_time(opened=opened, deadline=deadline, now=opened + timedelta(hours=19), every=every)
        is None
    )


@pytest.mark.parametrize("text", ["6x", "soon", "-1h"])
def test_tally_every_refuses_what_is_not_a_duration(text):
    with pytest.raises(TimeInputError, match="tally_every takes a duration such as 6h"):
        tally_interval(text)


def test_new_game_refuses_a_bad_tally_every(table):
    with pytest.raises(UserError, match="tally_every"):
        table(tally_every="often")
