"""Sign-up games as a good host runs them (docs/design.md: Sign-ups and spectators, Command line): `pbp
status` with only games open for sign-ups does not say there are no games; the host's
mail about a game short of players carries no players' command footer; and when a game
ends, those still on its substitutes' list are told they were not needed; a substitute's
confirmation promises a role only if the host calls them in."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from engine.seat_names import player_names
from pbp.composition import ComposedModerator
from pbp.game.stored import load
from pbp.settings import load_settings
from pbp.signups.starting import start_due, start_signed_up
from pbp.storage.open_games import open_game

from tests.signups.test_signup_commands import host  # noqa: F401  (the fixture)
from tests.signups.test_signup_desk import post  # noqa: F401  (the fixture)


def test_status_with_only_sign_ups_does_not_say_there_are_no_games(host):  # noqa: F811
    assert (
        host.pbp(
            "open-game", "ww3", "--ruleset", "werewolf", "--players", "8..8", "--closes", "3d"
        )[0]
        == 0
    )
    code, out, _ = host.pbp("status")
    assert code == 0 and "No games yet" not in out
    assert out.index("No game is running yet; these are open for sign-ups:") < out.index(
        "Sign-ups for ww3"
    )


def test_the_hosts_short_of_players_mail_has_no_players_footer(host):  # noqa: F811
    host.settings.write_text(
        host.settings.read_text() + "[forum]\nhost_address = host@example.org\n"
    )
    assert (
        host.pbp(
            "open-game", "ww3", "--ruleset", "werewolf", "--players", "8..8", "--closes", "1h"
        )[0]
        == 0
    )
    in_two_hours = datetime.now(timezone.utc) + timedelta(hours=2)  # past the closing time
    later = ComposedModerator(load_settings(str(host.settings)), clock=lambda: in_two_hours)
    with later:
        start_due(later)
        (mail,) = [
            row
            for row in open_game(later.folder, "ww3").file.outbox.all()
            if row["recipient"] == "host"
        ]
    assert "ww3 is short of players" in mail["subject"]
    assert "JOIN <game> <name>" not in mail["body"] and "WATCH <game>" not in mail["body"]


def test_the_substitutes_left_on_the_list_are_told_when_the_game_ends(host):  # noqa: F811
    assert (
        host.pbp(
            "open-game", "ww3", "--ruleset", "werewolf", "--players", "8..8", "--closes", "3d"
        )[0]
        == 0
    )
    names = player_names(10)
    host.sign_up("ww3", names)
    assert host.pbp("start", "ww3", "--no-send")[0] == 0
    with ComposedModerator(load_settings(str(host.settings))) as moderator:
        game = load(moderator, "ww3")
        wolves = [n for n in names[:8] if game.rules.status(game.state, n).team == "wolves"]
        assert not [r for r in game.file.outbox.all() if r["kind"] == "substitute_released"]
    for wolf in wolves:
        assert host.pbp("modkill", "ww3", wolf, "found out", "--no-send")[0] == 0
    with ComposedModerator(load_settings(str(host.settings))) as moderator:
        game = load(moderator, "ww3")
        assert game.phase is None  # the game is over
        told = [r for r in game.file.outbox.all() if r["kind"] == "substitute_released"]
    assert sorted(r["recipient"] for r in told) == sorted(names[8:])
    assert told[0]["subject"] == "[ww3] Game ww3 is over: thank you for standing by"
    assert "you were not called in" in told[0]["body"]


def test_a_substitutes_confirmation_promises_no_role(post):  # noqa: F811
    names = player_names(10)  # ww3 takes 8 to 9 players
    for name in names:
        address = f"{name.lower()}@x.example"
        post.send(address, f"JOIN ww3 {name}")
        post.send(address, f"CONFIRM ww3 {post.code('ww3', address)}")
    player = post.replies("ww3", f"{names[0].lower()}@x.example")[-1]["body"]
    substitute = post.replies("ww3", f"{names[9].lower()}@x.example")[-1]["body"]
    assert "your role comes by mail when the game starts" in " ".join(player.split())
    assert "number 1 on its substitutes' list" in " ".join(substitute.split())
    assert "your role comes by mail" not in " ".join(substitute.split())
    assert "if the host calls you in, your character's role and history come by mail" in " ".join(
        substitute.split()
    )


def test_a_join_after_the_start_is_offered_the_substitutes_list(post):  # noqa: F811
    """A late JOIN is not turned away: once the game runs, it joins the substitutes' list
    (behind those who signed up before), which `pbp substitute --next` reads; the players
    dealt in stay exactly those who played from the start."""
    names = player_names(8)  # ww3 takes 8 to 9: one seat is left empty
    for name in names:
        address = f"{name.lower()}@x.example"
        post.send(address, f"JOIN ww3 {name}")
        post.send(address, f"CONFIRM ww3 {post.code('ww3', address)}")
    start_signed_up(post.moderator, "ww3")
    post.send("zed@x.example", "JOIN ww3 Zed")
    asked = " ".join(post.replies("ww3", "zed@x.example")[-1]["body"].split())
    assert "has started, so its sign-ups are closed" not in asked
    assert "The game has started, so you would join its substitutes' list" in asked
    post.send("zed@x.example", f"CONFIRM ww3 {post.code('ww3', 'zed@x.example')}")
    joined = " ".join(post.replies("ww3", "zed@x.example")[-1]["body"].split())
    assert "Game ww3 has started, so you are number 1 on its substitutes' list, as Zed" in joined
    signups = open_game(post.moderator.folder, "ww3")
    assert [e.name for e in signups.players] == names and [e.name for e in signups.substitutes] == [
        "Zed"
    ]
