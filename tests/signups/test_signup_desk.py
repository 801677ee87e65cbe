"""Sign-up mail as hostile input (docs/design.md: Sign-ups and spectators; Hostile input), judged by the
order desk from parsed mail (the `InboundMail` port): anyone may send it, so every request
waits for the code mailed to its own address, refusals are one sentence, and mail about no
open game is never answered."""

from __future__ import annotations

import pytest

from engine.seat_names import player_names
from pbp.composition import ComposedModerator
from pbp.desk import Desk
from pbp.errors import UserError
from pbp.game.create import create_game
from pbp.ports import InboundMail
from pbp.game.record_parts import RosterPlayer
from pbp.settings import Settings
from pbp.storage.open_games import open_game
from pbp.signups.codes import MAX_PENDING
from pbp.signups.opening import open_for_signups
from pbp.signups.starting import start_signed_up
from pbp.mail.signup_words import find_signup
from pbp.storage.strangers import StrangerLog
from tests.fixtures.clocks import Clock


class Post:
    """Mail to the desk, one numbered message after another."""

    def __init__(self, moderator):
        self.moderator = moderator
        self.desk = Desk(moderator)
        self.number = 0

    def send(self, sender, command, **fields):
        self.number += 1
        return self.desk.receive(
            InboundMail(
                key=f"k{self.number}",
                sha256=f"s{self.number}",
                sender=sender,
                message_id=f"<m{self.number}@x.example>",
                subject="sign-up",
                commands=(command,),
                **fields,
            )
        )

    def replies(self, game_id, address):
        return [
            row
            for row in open_game(self.moderator.folder, game_id).file.outbox.all()
            if row["address"] == address
        ]

    def code(self, game_id, address):
        pending = open_game(self.moderator.folder, game_id).record.pending
        return next(code for code, request in pending.items() if request.email == address)


@pytest.fixture
def post(tmp_path):
    settings = Settings(
        data=tmp_path / "data", from_address="pbp@games.example", replies_per_sender_per_day=6
    )
    with ComposedModerator(settings, clock=Clock()) as moderator:
        open_for_signups(moderator, "ww3", "werewolf", "8..9", "2d")
        yield Post(moderator)


def test_mail_about_no_open_game_is_never_answered_and_counted_with_the_unknown_senders(post):
    assert post.send("eve@evil.example", "JOIN ww9 Eve") == "rejected"
    assert post.send("eve@evil.example", "WATCH nosuch") == "rejected"
    summary = StrangerLog(post.moderator.folder).summary()
    assert summary["senders"]["eve@evil.example"]["count"] == 2
    assert "no open or running game" in summary["senders"]["eve@evil.example"]["reason"]
    assert not post.replies("ww3", "eve@evil.example")


def test_a_sender_who_signs_up_leaves_the_unknown_senders(post):
    """An address that first wrote without a sign-up word ("sign me up") is listed with
    the unknown senders until it signs up properly; then the host no longer sees it there."""
    post.send("bruno@x.example", "sign me up")
    assert "bruno@x.example" in StrangerLog(post.moderator.folder).summary()["senders"]
    assert post.send("bruno@x.example", "JOIN ww3 Bruno") == "processed"
    assert "bruno@x.example" not in StrangerLog(post.moderator.folder).summary()["senders"]


def test_automatic_mail_and_mail_without_one_sender_are_not_answered(post):
    post.send("bot@x.example", "JOIN ww3 Bot", no_reply_reason="Auto-Submitted: auto-replied")
    post.send(None, "JOIN ww3 Nobody")
    assert not open_game(post.moderator.folder, "ww3").file.outbox.all()
    assert open_game(post.moderator.folder, "ww3").record.pending == {}


def test_a_code_works_once_and_only_from_its_own_address(post):
    post.send("ann@x.example", "JOIN ww3 Ann")
    code = post.code("ww3", "ann@x.example")
    assert post.send("eve@evil.example", f"CONFIRM ww3 {code}") == "rejected"
    assert (
        "That confirmation code for ww3 is not valid"
        in post.replies("ww3", "eve@evil.example")[-1]["body"]
    )
    assert post.send("ann@x.example", f"CONFIRM ww3 {code}") == "processed"
    assert [e.name for e in open_game(post.moderator.folder, "ww3").players] == ["Ann"]
    assert post.send("ann@x.example", f"CONFIRM ww3 {code}") == "rejected"  # used once already
    assert len(open_game(post.moderator.folder, "ww3").players) == 1


def test_a_newer_request_replaces_the_older_code(post):
    post.send("ann@x.example", "JOIN ww3 Ann")
    first = post.code("ww3", "ann@x.example")
    post.send("ann@x.example", "JOIN ww3 Annie")
    assert post.send("ann@x.example", f"CONFIRM ww3 {first}") == "rejected"
    post.send("ann@x.example", f"CONFIRM ww3 {post.code('ww3', 'ann@x.example')}")
    assert [e.name for e in open_game(post.moderator.folder, "ww3").players] == ["Annie"]


def test_a_refused_name_lists_every_problem_and_changes_nothing(post):
    post.send("ann@x.example", "JOIN ww3 Ann")
    post.send("ann@x.example", f"CONFIRM ww3 {post.code('ww3', 'ann@x.example')}")
    assert post.send("bob@x.example", "JOIN ww3 9lives") == "rejected"
    assert "'9lives' is not a valid name" in post.replies("ww3", "bob@x.example")[-1]["body"]
    post.send("bob@x.example", "JOIN ww3 ANN")
    body = post.replies("ww3", "bob@x.example")[-1]["body"]
    assert "The name 'ANN' cannot be used in ww3" in body and "used twice" in body
    post.send("bob@x.example", "JOIN ww3")
    assert "for example: JOIN ww3 Alice" in post.replies("ww3", "bob@x.example")[-1]["body"]
    assert "bob@x.example" not in [
        r.email for r in open_game(post.moderator.folder, "ww3").record.pending.values()
    ]


def test_leave_needs_a_sign_up_and_a_confirmation(post):
    post.send("ann@x.example", "LEAVE ww3")
    assert "You are not signed up for ww3" in post.replies("ww3", "ann@x.example")[-1]["body"]
    post.send("ann@x.example", "JOIN ww3 Ann")
    post.send("ann@x.example", f"CONFIRM ww3 {post.code('ww3', 'ann@x.example')}")
    post.send("ann@x.example", "LEAVE ww3")  # a forged LEAVE alone withdraws nobody
    assert [e.name for e in open_game(post.moderator.folder, "ww3").players] == ["Ann"]
    post.send("ann@x.example", f"CONFIRM ww3 {post.code('ww3', 'ann@x.example')}")
    assert open_game(post.moderator.folder, "ww3").players == ()


def test_replies_are_capped_per_address_per_day(post):
    for _ in range(10):
        post.send("flood@x.example", "JOIN ww3 Flood")
    assert len(post.replies("ww3", "flood@x.example")) == 6


def test_pending_requests_are_bounded_and_none_is_pushed_out(post):
    for number in range(MAX_PENDING + 5):
        post.send(f"forged{number}@x.example", f"JOIN ww3 P{number}")
    pending = open_game(post.moderator.folder, "ww3").record.pending
    assert len(pending) == MAX_PENDING
    assert "forged0@x.example" in {r.email for r in pending.values()}
    assert (
        post.replies("ww3", f"forged{MAX_PENDING}@x.example") == []
    )  # past the bound: not answered


def test_a_player_of_another_game_may_sign_up_and_players_cannot_watch_their_own_game(post):
    moderator = post.moderator
    roster = [RosterPlayer(name, f"{name.lower()}@players.example") for name in player_names(8)]
    create_game(
        moderator, "werewolf", roster, seed="1", options={"spectators": "all"}, game_id="ww1"
    )
    assert post.send("alice@players.example", "JOIN ww3 Alice") == "processed"
    assert "CONFIRM ww3" in post.replies("ww3", "alice@players.example")[-1]["body"]
    assert post.send("fan@x.example", "JOIN ww1 Fan") == "rejected"
    assert (
        "Game ww1 is not open for sign-ups: its players were chosen by the host before it began."
        in moderator.folder.game("ww1").outbox.all()[-1]["body"]
    )
    assert post.send("alice@players.example", "WATCH ww1") == "rejected"
    reply = moderator.folder.game("ww1").outbox.all()[-1]
    assert reply["address"] == "alice@players.example"
    assert "You play in ww1, and players cannot watch their own game." in reply["body"]


def test_a_game_whose_spectators_are_only_the_dead_takes_no_watchers(post):
    moderator = post.moderator
    roster = [RosterPlayer(name, f"{name.lower()}@players.example") for name in player_names(8)]
    create_game(moderator, "werewolf", roster, seed="1", game_id="ww1")
    assert post.send("fan@x.example", "WATCH ww1") == "rejected"
    reply = moderator.folder.game("ww1").outbox.all()[-1]
    assert (
        "Game ww1 takes no watchers: its host has set its option spectators to dead."
        in reply["body"]
    )
    assert "watch_pending" not in moderator.folder.game("ww1").record()


def test_start_needs_the_minimum_and_sends_late_joins_to_the_substitutes_list(post):
    with pytest.raises(UserError, match="has 0 confirmed sign-ups and needs at least 8"):
        start_signed_up(post.moderator, "ww3")
    for name in player_names(8):
        address = f"{name.lower()}@x.example"
        post.send(address, f"JOIN ww3 {name}")
        post.send(address, f"CONFIRM ww3 {post.code('ww3', address)}")
    start_signed_up(post.moderator, "ww3")
    assert post.send("late@x.example", "JOIN ww3 Late") == "processed"
    assert "substitutes' list" in post.replies("ww3", "late@x.example")[-1]["body"]
    with pytest.raises(UserError, match="has started already"):
        start_signed_up(post.moderator, "ww3")


@pytest.mark.parametrize(
    "body, subject, found",
    [
        ("JOIN ww3 Alice\nthanks", "", "JOIN ww3 Alice"),
        ("", "Re: join ww3 Bob", "JOIN ww3 Bob"),
        (
            "yes\n\n> Hello\n>     CONFIRM ww3 abcd23456k\n",
            "Re: [ww3] Confirm",
            "CONFIRM ww3 abcd23456k",
        ),
        (
            "",
            "Re: [ww3] Confirm your sign-up for ww3 (CONFIRM ww3 abcd23456k)",
            "CONFIRM ww3 abcd23456k",
        ),
        (
            "Hello there\nJOIN ww3 Alice",
            "",
            "JOIN ww3 Alice",
        ),  # under a greeting: any line the sender wrote
        (
            "Hi! count me in\nJOIN ww3 Bruno TZ=Europe/Rome\nFORUM: bruno_b\ncheers",
            "",
            "JOIN ww3 Bruno TZ=Europe/Rome FORUM: bruno_b",
        ),
        ("Hi!\n\n> JOIN ww3 Alice", "", None),  # but never a quoted one
        ("> JOIN ww3 Alice", "", None),  # quoted text is someone else's words
        ("WATCH ww1 please", "", "WATCH ww1"),
        (
            "JOIN ww3 " + "x" * 500,
            "",
            "JOIN ww3 " + "x" * 200,
        ),  # a long name is cut, then refused by the rules
    ],
)
def test_sign_up_commands_in_a_mail(body, subject, found):
    assert find_signup(body, subject) == found


def test_watch_and_unwatch_each_wait_for_their_code(post):
    moderator = post.moderator
    roster = [RosterPlayer(name, f"{name.lower()}@players.example") for name in player_names(8)]
    create_game(
        moderator, "werewolf", roster, seed="1", options={"spectators": "all"}, game_id="ww1"
    )

    def code():
        pending = moderator.folder.game("ww1").record()["watch_pending"]
        return next(c for c, request in pending.items() if request["email"] == "fan@x.example")

    post.send("fan@x.example", "UNWATCH ww1")
    assert "You are not watching ww1" in moderator.folder.game("ww1").outbox.all()[-1]["body"]
    post.send("fan@x.example", "WATCH ww1")
    assert (
        moderator.folder.game("ww1").record().get("watchers", []) == []
    )  # a request alone changes nothing
    post.send("fan@x.example", f"CONFIRM ww1 {code()}")
    assert moderator.folder.game("ww1").record()["watchers"] == ["fan@x.example"]
    post.send("fan@x.example", "UNWATCH ww1")
    assert moderator.folder.game("ww1").record()["watchers"] == ["fan@x.example"]
    post.send("fan@x.example", f"CONFIRM ww1 {code()}")
    assert (
        not moderator.folder.game("ww1").record().get("watchers")
    )  # none left (an emptied key is stored null)
    assert (
        "pbp sends you no more mail about ww1."
        in moderator.folder.game("ww1").outbox.all()[-1]["body"]
    )


def test_the_signed_up_mail_states_the_zone_and_forum_name_it_took(post):
    """The mail that confirms a sign-up repeats the time zone and the forum account it took,
    and gives the closing time in the player's zone as well as UTC."""
    assert post.send("elena@x.example", "JOIN ww3 Elena TZ=Asia/Tokyo FORUM=elena_m") == "processed"
    assert (
        post.send("elena@x.example", f"CONFIRM ww3 {post.code('ww3', 'elena@x.example')}")
        == "processed"
    )
    body = " ".join(post.replies("ww3", "elena@x.example")[-1]["body"].split())
    assert "Your time zone is Asia/Tokyo: times in your mail are shown in it and in UTC." in body
    assert "Your forum account is elena_m." in body
    assert (
        "JST (" in body.split("Sign-ups close ")[1] and " UTC)" in body.split("Sign-ups close ")[1]
    )
    assert post.send("hugo@x.example", "JOIN ww3 Hugo") == "processed"
    assert (
        post.send("hugo@x.example", f"CONFIRM ww3 {post.code('ww3', 'hugo@x.example')}")
        == "processed"
    )
    body = " ".join(post.replies("ww3", "hugo@x.example")[-1]["body"].split())
    assert "You gave no time zone, so times in your mail are shown in UTC." in body
    assert "forum account" not in body.split("To withdraw")[0].split("signed up for")[1]
