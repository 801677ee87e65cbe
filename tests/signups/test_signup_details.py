"""Sign-ups carry a time zone and a forum account (docs/design.md: Sign-ups and spectators), and a game
opened for sign-ups takes NPCs and its posts' dialect (`pbp open-game --npc --dialect`):
the roster a sign-up game starts with holds what a roster file would, checked the same
way, and a bad value is refused in one sentence saying how to fix it, changing nothing."""

from __future__ import annotations

import pytest

from engine.seat_names import player_names
from pbp.composition import ComposedModerator
from pbp.desk import Desk
from pbp.game.record_parts import Npc
from pbp.storage.signup_record import SignupRecord
from pbp.game.stored import load
from pbp.ports import InboundMail
from pbp.settings import Settings
from pbp.signups.opening import open_for_signups
from pbp.signups.starting import start_signed_up
from pbp.mail.signup_words import find_signup
from pbp.storage.drafts import DraftBook
from pbp.storage.open_games import open_game
from tests.fixtures.clocks import Clock


class Post:
    def __init__(self, moderator):
        self.moderator, self.desk, self.number = moderator, Desk(moderator), 0

    def send(self, sender: str, body: str) -> str:
        self.number += 1
        command = find_signup(body, "sign-up")
        return self.desk.receive(
            InboundMail(
                key=f"k{self.number}",
                sha256=f"s{self.number}",
                sender=sender,
                message_id=f"<m{self.number}@x.example>",
                subject="sign-up",
                commands=(command,) if command else (),
            )
        )

    def join(self, sender: str, body: str) -> str:
        """JOIN, then CONFIRM with the code mailed back; the outcome of the last mail."""
        outcome = self.send(sender, body)
        pending = self.record().pending
        code = next((code for code, request in pending.items() if request.email == sender), None)
        return self.send(sender, f"CONFIRM ww3 {code}") if code else outcome

    def record(self) -> SignupRecord:
        return open_game(self.moderator.folder, "ww3").record

    def last_reply(self, address: str) -> str:
        rows = [
            r
            for r in open_game(self.moderator.folder, "ww3").file.outbox.all()
            if r["address"] == address
        ]
        return " ".join(rows[-1]["body"].split())


@pytest.fixture
def post(tmp_path):
    settings = Settings(
        data=tmp_path / "data", from_address="pbp@games.example", replies_per_sender_per_day=20
    )
    with ComposedModerator(settings, clock=Clock()) as moderator:
        open_for_signups(moderator, "ww3", "werewolf", "8..9", "2d")
        yield Post(moderator)


@pytest.mark.parametrize(
    "body, found",
    [
        (
            "JOIN ww3 Alice TZ=Europe/Berlin FORUM=alice_k",
            "JOIN ww3 Alice TZ=Europe/Berlin FORUM=alice_k",
        ),
        (
            "JOIN ww3 Alice\nTZ: Europe/Berlin\n\nforum: alice k\nthanks!",
            "JOIN ww3 Alice TZ: Europe/Berlin forum: alice k",
        ),
        (
            "JOIN ww3 Alice\nsee you\nTZ: Europe/Berlin",
            "JOIN ww3 Alice",
        ),  # only the lines right after it
        ("JOIN ww3 Alice\n> TZ: Europe/Berlin", "JOIN ww3 Alice"),  # quoted text is someone else's
    ],
)
def test_the_time_zone_and_forum_name_come_on_the_join_line_or_right_after_it(body, found):
    assert find_signup(body, "") == found


def test_a_sign_up_with_time_zone_and_forum_name_reaches_the_roster(post):
    assert post.join("ann@x.example", "JOIN ww3 Ann TZ=Europe/Berlin FORUM=ann_k") == "processed"
    assert (
        post.join("bob@x.example", "JOIN ww3 Bob\nTZ: America/New_York\nFORUM: Bob the Builder")
        == "processed"
    )
    for name in player_names(8)[2:]:
        assert post.join(f"{name.lower()}@x.example", f"JOIN ww3 {name}") == "processed"
    assert [(e.name, e.timezone, e.forum_name) for e in post.record().entries[:2]] == [
        ("Ann", "Europe/Berlin", "ann_k"),
        ("Bob", "America/New_York", "Bob the Builder"),
    ]
    game = start_signed_up(post.moderator, "ww3")
    roster = load(post.moderator, game.id).record.roster
    assert (roster.of("Ann").timezone, roster.of("Ann").forum_name) == ("Europe/Berlin", "ann_k")
    assert (roster.of("Bob").timezone, roster.of("Bob").forum_name) == (
        "America/New_York",
        "Bob the Builder",
    )
    welcome = next(
        r for r in game.file.outbox.all() if r["recipient"] == "Ann" and r["kind"] == "welcome"
    )
    assert "Deadlines are shown in your time zone (Europe/Berlin) and in UTC." in " ".join(
        welcome["body"].split()
    )


def test_an_unknown_time_zone_is_refused_in_one_sentence_and_changes_nothing(post):
    before = post.record()
    assert post.send("ann@x.example", "JOIN ww3 Ann TZ=Europe/Berln") == "rejected"
    reply = post.last_reply("ann@x.example")
    assert (
        "The time zone 'Europe/Berln' is unknown: write an IANA name such as Europe/Berlin, America/New_York "
        "or UTC, e.g. JOIN ww3 Ann TZ=Europe/Berlin."
    ) in reply
    assert post.record().pending == before.pending and post.record().entries == ()


def test_a_bad_or_taken_forum_name_is_refused(post):
    assert post.send("ann@x.example", "JOIN ww3 Ann FORUM=[url]x[/url]") == "rejected"
    assert "The forum name '[url]x[/url]' cannot be used" in post.last_reply("ann@x.example")
    assert post.join("ann@x.example", "JOIN ww3 Ann FORUM=ann_k") == "processed"
    assert post.send("bob@x.example", "JOIN ww3 Bob FORUM=ANN_K") == "rejected"
    assert "The forum name 'ANN_K' is signed up for ww3 already" in post.last_reply("bob@x.example")
    assert [e.name for e in post.record().entries] == ["Ann"]


def test_open_game_takes_npcs_and_a_dialect_and_the_game_starts_with_them(tmp_path):
    settings = Settings(
        data=tmp_path / "data", from_address="pbp@games.example", replies_per_sender_per_day=20
    )
    with ComposedModerator(settings, clock=Clock()) as moderator:
        open_for_signups(
            moderator,
            "ww3",
            "infiltration",
            "5..6",
            "2d",
            npcs=[Npc("Otacon", "engineer", "green")],
            dialect="bbcode",
        )
        post = Post(moderator)
        assert post.send("ann@x.example", "JOIN ww3 otacon") == "rejected"  # an NPC's name is taken
        assert "used twice" in post.last_reply("ann@x.example")
        for name in player_names(5):
            assert post.join(f"{name.lower()}@x.example", f"JOIN ww3 {name}") == "processed"
        game = start_signed_up(moderator, "ww3")
        assert game.record.npc_names == ("Otacon",)
        opening = DraftBook(game.file).get("opening")
        assert opening.dialect == "bbcode" and "[b]" in opening.text
