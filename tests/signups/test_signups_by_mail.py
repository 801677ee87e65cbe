"""Sign-ups and spectators through the real mail servers (docs/design.md: Sign-ups and
spectators): players mail JOIN / LEAVE / WATCH over SMTP and confirm by replying
to the code pbp mails them, read over IMAP; pbp runs its own cycle with a clock the test
moves (no waiting on the wall clock)."""

from __future__ import annotations


import pytest

from engine.seat_names import player_names
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.host.orders import submit
from pbp.host.substitute import substitute
from pbp.render.renderer import subject_words
from pbp.storage.open_games import open_game
from pbp.signups.opening import open_for_signups
from pbp.signups.starting import start_signed_up
from pbp.signups.substitutes import next_substitute, strike_off
from pbp.host.status import status_text
from tests.signups.conftest import text

pytestmark = pytest.mark.integration


def join(site, box, game_id, name):
    """JOIN by mail, then confirm by replying to the code mail (quoting it)."""
    box.send(site.address, "sign me up", f"JOIN {game_id} {name}\n")
    site.turn()
    (code_mail,) = box.read_new()
    assert f"CONFIRM {game_id} " in code_mail["Subject"]
    box.reply(code_mail, "yes, that was me")
    site.turn()
    (done,) = box.read_new()
    return code_mail, done


def test_a_full_sign_up_from_open_game_to_start_and_a_substitute_from_the_list(site):
    open_for_signups(site.moderator, "ww3", "werewolf", "8..8", "2d", seed="5")
    names = player_names(9)
    boxes = {name: site.make_player(name.lower()) for name in names}
    for name in names[:8]:
        code_mail, done = join(site, boxes[name], "ww3", name)
        assert done["Subject"] == "[ww3] Signed up for ww3"
        assert f"You are signed up for ww3 as {name}" in text(done)
        assert code_mail["Auto-Submitted"] == "auto-replied" and code_mail["In-Reply-To"]
    _code, late = join(site, boxes[names[8]], "ww3", names[8])
    assert "number 1 on its substitutes' list" in text(late)

    # A code is good once, from its own address: Chloe's reply sent again changes nothing.
    alice = boxes[names[0]]
    alice.send(site.address, "again", "JOIN ww3 Alicia\n")
    site.turn()
    assert "You are signed up for ww3 already, as Alice" in text(alice.read_new()[0])

    # A name the roster rules refuse: every problem listed, nothing changes.
    stranger = site.make_player("stranger")
    stranger.send(site.address, "join", "JOIN ww3 bruno\n")
    site.turn()
    refusal = text(stranger.read_new()[0])
    assert "The name 'bruno' cannot be used in ww3" in refusal and "used twice" in refusal

    # LEAVE, confirmed: the last player leaves, the first substitute moves up.
    leaver = boxes[names[7]]
    leaver.send(site.address, "leave", "LEAVE ww3\n")
    site.turn()
    (code_mail,) = leaver.read_new()
    leaver.reply(code_mail, "")
    site.turn()
    assert "Your sign-up for ww3 is withdrawn" in text(leaver.read_new()[0])
    signups = open_game(site.moderator.folder, "ww3")
    assert [e.name for e in signups.players] == [*names[:7], names[8]]
    status = status_text(site.moderator.folder)
    assert "Sign-ups for ww3 (werewolf, 8 to 8 players)" in status and f"{names[8]} <" in status

    # The leaver signs up again: now on the substitutes' list; the host starts the game.
    join(site, leaver, "ww3", names[7])
    game = start_signed_up(site.moderator, "ww3")
    site.turn()
    assert sorted(game.record.roster.names) == sorted([*names[:7], names[8]])
    for name in [*names[:7], names[8]]:
        assert any(
            "Welcome" in m["Subject"] or "welcome" in text(m).lower()
            for m in boxes[name].read_new()
        )
    told = text(leaver.read_new()[0])
    assert "Game ww3 has started" in told and "number 1 on its substitutes' list" in told
    assert "substitutes' list (1)" in status_text(site.moderator.folder, "ww3")

    # The host hands Alice's character to the first on the list.
    roster = {e.email for e in load(site.moderator, "ww3").record.roster}
    chosen, skipped = next_substitute(site.moderator.folder, "ww3", roster, set())
    assert chosen.name == names[7] and skipped == []
    substitute(site.moderator, "ww3", names[0], chosen.name, chosen.email)
    strike_off(site.moderator.folder, "ww3", chosen.email)
    site.turn()
    welcome = leaver.read_new()[0]
    assert f"TOKEN: {load(site.moderator, 'ww3').token(names[0])}" in text(welcome)
    assert open_game(site.moderator.folder, "ww3").substitutes == ()


def test_the_game_starts_by_itself_at_the_closing_time_when_enough_signed_up(site):
    open_for_signups(site.moderator, "ww4", "werewolf", "8..10", "1d")
    names = player_names(8)
    boxes = {name: site.make_player(name.lower()) for name in names}
    for name in names[:7]:
        join(site, boxes[name], "ww4", name)
    site.clock.advance(days=1, seconds=1)
    report = site.turn()
    assert report.started == ["Game ww4 closed with 7 of 8 players; the host is told."]
    short = text(site.host.read_new()[0])
    assert "Sign-ups for ww4 closed with 7 confirmed sign-ups; the game needs at least 8" in short
    assert site.turn().started == []  # told once
    assert "ww4" not in site.moderator.folder.game_ids()

    last = boxes[
        names[7]
    ]  # sign-ups stay open: the eighth makes it, in the turn of the confirmation
    last.send(site.address, "sign me up", f"JOIN ww4 {names[7]}\n")
    site.turn()
    last.reply(last.read_new()[0], "")
    report = site.turn()
    assert report.started == ["Game ww4 started at its closing time with 8 players."]
    game = load(site.moderator, "ww4")
    assert game.record.phase_id == "N0" and len(game.record.roster) == 8
    for name in names:
        assert any(
            game.token(name) in text(m)
            for m in boxes[name].read_new(at_least=1 if name != names[7] else 2)
        )


def werewolf_game(site, game_id, spectators):
    names = player_names(8)
    boxes = {name: site.make_player(f"{game_id}{name.lower()}") for name in names}
    open_for_signups(
        site.moderator,
        game_id,
        "werewolf",
        "8..8",
        "1d",
        options={"spectators": spectators},
        seed="3",
    )
    for name in names:
        join(site, boxes[name], game_id, name)
    start_signed_up(site.moderator, game_id)
    site.turn()
    for box in boxes.values():
        box.read_new()
    return names, boxes


def play_until_dead(site, game_id):
    """Resolve phases with the scripted orders until someone has died: (the phases
    resolved, the last one's summary, the dead)."""
    resolved = []
    while True:
        game = load(site.moderator, game_id)
        for name in game.phase.actors:
            orders = game.rules.scripted_orders(game.state, name, "3")
            if orders.strip():
                submit(site.moderator, game_id, name, orders)
        summary = resolve_phase(site.moderator, game_id)
        resolved.append(summary.phase)
        after = load(site.moderator, game_id)
        dead = [n for n in after.record.tokens if not after.rules.status(after.state, n).alive]
        if dead:
            return resolved, summary, dead


def test_a_dead_player_gets_the_hosts_view_and_a_confirmed_watcher_too(site):
    names, boxes = werewolf_game(site, "ww5", "all")
    watcher = site.make_player("watcher")
    watcher.send(site.address, "watch", "WATCH ww5\n")
    site.turn()
    (code_mail,) = watcher.read_new()
    assert "You asked to watch game ww5" in text(code_mail)
    watcher.reply(code_mail, "")
    site.turn()
    assert "After each resolution of ww5 you get the host's view" in text(watcher.read_new()[0])

    resolved, summary, dead = play_until_dead(site, "ww5")
    site.turn()
    for name in dead:
        mails = boxes[name].read_new(at_least=2)
        spectator = next(m for m in mails if "as the host saw it" in m["Subject"])
        body = text(spectator)
        assert "You are dead in game ww5, and the dead keep their eyes open" in body
        assert "Orders" in body and "What happened in public:" in body
        assert all(f"- {describe}" in body for describe in summary.public)
        assert spectator["Auto-Submitted"] == "auto-generated"
    watched = watcher.read_new()
    assert [m["Subject"] for m in watched] == [
        f"[ww5] {subject_words('werewolf', phase)} as the host saw it" for phase in resolved
    ]
    assert "UNWATCH ww5" in text(watched[0])
    for name in names:
        if name not in dead:
            assert not any("as the host saw it" in m["Subject"] for m in boxes[name].read_new())

    # The dead never act: a dead player's orders are refused, and nothing they send is passed on.
    corpse = boxes[dead[0]]
    game = load(site.moderator, "ww5")
    corpse.send(
        site.address,
        "orders",
        f"BEGIN ORDERS ww5 {game.phase.id}\nTOKEN: {game.token(dead[0])}\nVOTE Alice\nEND ORDERS\n",
    )
    site.turn()
    assert "the dead give no orders" in text(corpse.read_new()[0])
    assert all(
        not box.read_new(at_least=0, timeout=0) for name, box in boxes.items() if name != dead[0]
    )
