"""A substitute's welcome carries the character's past (docs/design.md: Command line,
`pbp substitute`): besides what it was told privately, every message of its team channels
that it wrote or was sent, and nothing of the channels it is not in."""

from __future__ import annotations

from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.record_parts import RosterPlayer
from pbp.game.stored import load
from pbp.host import substitute as host_substitute
from pbp.ports import InboundMail, MessageBlock

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
ROSTER = [RosterPlayer(name, f"{name.lower()}@example.org") for name in NAMES]
ROLES = "werewolf,werewolf,mason,mason,seer,villager,villager,villager"


def say(moderator, sender: str, channel: str, text: str, number: int) -> None:
    game = load(moderator, "ww1")
    Desk(moderator).receive(
        InboundMail(
            key=f"k{number}",
            sha256=f"{number:064d}",
            sender=f"{sender.lower()}@example.org",
            message_id=f"<m{number}@example.org>",
            subject="talk",
            messages=(MessageBlock("ww1", channel, game.token(sender), text),),
        )
    )


def test_a_substitutes_welcome_holds_the_history_of_the_characters_team_channels(moderator):
    create_game(moderator, "werewolf", ROSTER, seed="s5", options={"roles": ROLES}, game_id="ww1")
    game = load(moderator, "ww1")
    masons = [n for n in NAMES if game.status(n).channels == ("masons",)]
    wolves = [n for n in NAMES if game.status(n).channels == ("pack",)]
    say(moderator, masons[0], "masons", "Mason buddies. Claim only if needed.", 1)
    say(moderator, masons[1], "masons", "Agreed, quiet until day 2.", 2)
    say(moderator, wolves[0], "pack", "Let us kill the loud one.", 3)
    host_substitute.substitute(moderator, "ww1", masons[1], "Lena", "lena@example.org")
    (welcome,) = [
        row
        for row in load(moderator, "ww1").file.outbox.all()
        if row["kind"] == "welcome" and row["address"] == "lena@example.org"
    ]
    body = welcome["body"]
    assert f"What {masons[1]} read and wrote in team channels so far:" in body
    assert f"{masons[0]} to masons, Night 0:\n    Mason buddies. Claim only if needed." in body
    assert f"{masons[1]} to masons, Night 0:\n    Agreed, quiet until day 2." in body
    assert "kill the loud one" not in body
