"""What the desk's game tests set up through pbp's own ways in: a player's message to the
host, read from a mail's message block as `pbp run` reads it, and an Infiltration game
beside the site's Werewolf game."""

from __future__ import annotations

from pbp.composition import ComposedModerator
from pbp.conversations.channels import HOST
from pbp.desk import Desk
from pbp.game.stored import load
from pbp.ports import InboundMail, MessageBlock


def player_writes(site, game_id: str, player: str, text: str, channel: str = HOST) -> None:
    """`player` mails a message block to `channel` (the host's, unless told) of the game."""
    with ComposedModerator(site.settings()) as moderator:
        game = load(moderator, game_id)
        number = len(game.file.mails) + 1
        block = MessageBlock(game_id, channel, game.token(player), text)
        Desk(moderator).receive(
            InboundMail(
                key=f"talk{number}",
                sha256=f"talk{number}",
                sender=f"{player.lower()}@example.org",
                message_id=f"<talk{number}@example.org>",
                subject="message",
                messages=(block,),
            )
        )


def outbox_to(site, game_id: str, player: str, kind: str) -> list[dict]:
    """The mails of `kind` queued or sent to `player` in the game."""
    with ComposedModerator(site.settings()) as moderator:
        file = load(moderator, game_id).file
        return [
            dict(row)
            for row in file.outbox.all()
            if row["recipient"] == player and row["kind"] == kind
        ]


def add_infiltration_game(site, game_id: str = "i1") -> None:
    assert (
        site.pbp(
            "new-game",
            "--ruleset",
            "infiltration",
            "--roster",
            str(site.root / "roster.csv"),
            "--seed",
            "3",
            "--id",
            game_id,
            "--no-send",
        )
        == 0
    )
