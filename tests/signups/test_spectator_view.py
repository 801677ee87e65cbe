"""What the dead and the spectators see (docs/design.md: Sign-ups and spectators): the host's
view of each phase, with the team channels' messages of the phase (pack, Masons, and in
Infiltration the Reds when the option `spectators` lets anyone watch), every character's
role in the first such mail to an address, and only the actors who gave orders."""

from __future__ import annotations

from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.record_parts import Npc, RosterPlayer
from pbp.game.resolution import resolve_phase
from pbp.game.stored import load
from pbp.host import removal
from pbp.host.orders import submit
from pbp.ports import InboundMail, MessageBlock
from pbp.signups.spectators import KIND as SPECTATOR

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
ROSTER = [RosterPlayer(name, f"{name.lower()}@example.org") for name in NAMES]
ROLES = "werewolf,werewolf,mason,mason,seer,villager,villager,villager"


def say(moderator, game_id: str, sender: str, channel: str, text: str, number: int) -> None:
    game = load(moderator, game_id)
    Desk(moderator).receive(
        InboundMail(
            key=f"k{number}",
            sha256=f"{number:064d}",
            sender=f"{sender.lower()}@example.org",
            message_id=f"<m{number}@example.org>",
            subject="talk",
            messages=(MessageBlock(game_id, channel, game.token(sender), text),),
        )
    )


def spectator_mail(moderator, game_id: str, address: str) -> list[str]:
    return [
        row["body"]
        for row in load(moderator, game_id).file.outbox.all()
        if row["kind"] == SPECTATOR and row["address"] == address
    ]


def test_the_dead_see_the_role_list_once_and_every_team_channels_messages(moderator):
    create_game(moderator, "werewolf", ROSTER, seed="s5", options={"roles": ROLES}, game_id="ww1")
    game = load(moderator, "ww1")
    masons = [n for n in NAMES if game.status(n).channels == ("masons",)]
    wolves = [n for n in NAMES if game.status(n).channels == ("pack",)]
    villager = next(n for n in NAMES if game.status(n).label == "villager")
    removal.modkill(
        moderator, "ww1", villager, "left the game"
    )  # dead, so watching (spectators=dead)
    say(moderator, "ww1", masons[0], "masons", "Mason buddies. Claim only if needed.", 1)
    say(moderator, "ww1", wolves[0], "pack", "Nobody knows us yet.", 2)
    resolve_phase(moderator, "ww1")  # N0
    (first,) = spectator_mail(moderator, "ww1", f"{villager.lower()}@example.org")
    assert "Who is who (the roles as the host knows them now):" in first
    for name in NAMES:
        role = load(moderator, "ww1").status(name).label
        assert (
            f"- {name}{' (dead)' if name == villager else ''}: {role.capitalize()}" in first
        )  # as every text
    assert f"{masons[0]} to masons:\n    Mason buddies. Claim only if needed." in first
    assert f"{wolves[0]} to pack:\n    Nobody knows us yet." in first
    assert (
        "(no orders: the rules' default applies)" not in first and "- Nobody gave orders." in first
    )
    (relay,) = [
        row["body"]
        for row in load(moderator, "ww1").file.outbox.all()
        if row["kind"] == "message" and row["recipient"] == masons[1]
    ]
    assert "those who watch the game read it after the phase" in " ".join(relay.split())
    submit(moderator, "ww1", wolves[0], f"NOMINATE {masons[0]}")
    resolve_phase(moderator, "ww1")  # D1-nominate
    second = spectator_mail(moderator, "ww1", f"{villager.lower()}@example.org")[1]
    assert "Who is who" not in second and "Said in the team channels" not in second
    orders = second.split("Orders (whoever is not listed gave none):\n", 1)[1].split("\n\n", 1)[0]
    assert orders == f"- {wolves[0]}: NOMINATE {masons[0]}"  # the others gave none: left out


def test_infiltration_spectators_read_the_reds_channel_when_the_option_lets_them(moderator):
    for spectators, shown in (("off", False), ("dead", True)):
        game_id = f"inf{spectators}"
        # a Red NPC beside the Red player: a lone Red has no channel to write to
        create_game(
            moderator,
            "infiltration",
            ROSTER[:6],
            [Npc("Ocelot", "warrior", "red")],
            seed="7",
            game_id=game_id,
            options={"spectators": spectators},
        )
        game = load(moderator, game_id)
        reds = [n for n in NAMES[:6] if game.status(n).channels == ("reds",)]
        assert reds
        green = next(n for n in NAMES[:6] if n not in reds)
        removal.modkill(moderator, game_id, green, "left the game")
        say(
            moderator,
            game_id,
            reds[0],
            "reds",
            "Hack the Seer terminal first.",
            10 if shown else 20,
        )
        resolve_phase(moderator, game_id)
        told = spectator_mail(moderator, game_id, f"{green.lower()}@example.org")
        assert bool(told) is shown
        relays = [
            " ".join(row["body"].split())
            for row in load(moderator, game_id).file.outbox.all()
            if row["kind"] == "message"
        ]
        assert all(("those who watch the game read it" in relay) is shown for relay in relays)
        if shown:
            assert f"{reds[0]} to reds:\n    Hack the Seer terminal first." in told[0]
            assert f"- {reds[0]}: Red" in told[0]
