"""Tokens sit only in the form block at the end of a mail (docs/design.md: Hostile input —
"Tokens appear in a mail only inside the form block at its end, never near the top where
a notification preview shows it"). Every mail of two whole demo games, and every other
kind of mail pbp sends a player or the host, is checked: the recipient's token (or the
host token) occurs only in the final block, and nobody else's token occurs at all."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.seat_names import player_names
from pbp.demo import play_demo
from pbp.conversations.host_side import reply_command
from pbp.desk import Desk
from pbp.ports import MessageBlock
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.game import deadlines
from pbp.host import substitute as host_substitute
from pbp.composition import ComposedModerator
from pbp.game.notifying.reminders import queue_reminders
from pbp.game.record_parts import RosterPlayer
from pbp.storage.datafolder import DataFolder
from tests.fixtures.harness import command_mail, order_mail, write_settings
from pbp.storage.host_token import known_host_token


def final_block_start(lines: list[str]) -> int | None:
    """Where the blocks that end the mail begin: the last `BEGIN ORDERS` line when the
    mail ends with `END ORDERS`, or with the message forms that follow the order form
    (`END MESSAGE`; the first `BEGIN MESSAGE` when there is no order form), or the last
    line when it is a lone `TOKEN:` line."""
    if lines and lines[-1] == "END ORDERS":
        return max(i for i, line in enumerate(lines) if line.startswith("BEGIN ORDERS "))
    if lines and lines[-1] == "END MESSAGE":
        orders = [i for i, line in enumerate(lines) if line.startswith("BEGIN ORDERS ")]
        return (
            orders[-1]
            if orders
            else min(i for i, line in enumerate(lines) if line.startswith("BEGIN MESSAGE "))
        )
    if lines and lines[-1].startswith("TOKEN: "):
        return len(lines) - 1
    return None


def misplaced_tokens(row: dict, tokens: dict[str, str]) -> list[str]:
    """What is wrong with one outbox row: a token outside the final block, or anyone
    else's token anywhere."""
    lines = row["body"].rstrip("\n").split("\n")
    problems = []
    for owner, token in tokens.items():
        if token not in row["body"] and token not in row["subject"]:
            continue
        if owner != row["recipient"]:
            problems.append(f"{owner}'s token in a mail to {row['recipient']}")
            continue
        start = final_block_start(lines)
        if token in row["subject"] or start is None or token in "\n".join(lines[:start]):
            problems.append(f"{owner}'s token outside the final form block of a {row['kind']} mail")
    return problems


def checked(folder: DataFolder) -> set[str]:
    """Check every outbox row of every game; return the kinds of mail seen."""
    kinds = set()
    for file in folder.games():
        record = file.record()
        tokens = dict(record["tokens"])
        host_token = known_host_token(file)
        if host_token:
            tokens["host"] = host_token
        for row in file.outbox.all():
            kinds.add(row["kind"])
            assert misplaced_tokens(row, tokens) == [], row["body"]
    return kinds


def test_the_checker_finds_a_token_near_the_top():
    tokens = {"Alice": "tok-alice", "Bruno": "tok-bruno"}
    good = {
        "recipient": "Alice",
        "kind": "x",
        "subject": "s",
        "body": "Hello\n\nBEGIN ORDERS g1 T1\nTOKEN: tok-alice\nEND ORDERS\n",
    }
    assert misplaced_tokens(good, tokens) == []
    assert misplaced_tokens({**good, "body": "Your token is tok-alice.\n" + good["body"]}, tokens)
    assert misplaced_tokens({**good, "body": good["body"] + "P.S.\n"}, tokens)
    assert misplaced_tokens({**good, "recipient": "Bruno"}, tokens)


@pytest.mark.parametrize("ruleset", ["infiltration", "werewolf"])
def test_every_mail_of_a_demo_game_keeps_the_token_in_the_final_block(tmp_path, ruleset):
    play_demo(ruleset, seed="1", data=tmp_path / "data", say=lambda text: None)
    with DataFolder(tmp_path / "data", writer=False) as folder:
        assert {"welcome", "receipt", "report"} <= checked(folder)


def test_every_other_kind_of_mail_keeps_the_token_in_the_final_block(tmp_path, clock):
    """Help, form, status, unknown command, reminder, rejection, notices, the substitute's
    welcome (with the history of the character), a night reminder, and the host's draft."""
    settings = write_settings(
        tmp_path / "pbp.ini",
        {
            "pbp": {"data": tmp_path / "data"},
            "forum": {"host_address": "host@example.org", "posts": tmp_path / "posts"},
        },
    )
    from pbp.settings import load_settings

    with ComposedModerator(load_settings(str(settings)), clock=clock) as moderator:
        names = player_names(9)
        roster = [RosterPlayer(name, f"{name.lower()}@example.org") for name in names]
        game = create_game(moderator, "werewolf", roster, seed="3", game_id="w1")
        desk = Desk(moderator)
        first, second, third = game.phase.actors[:3]
        for word in ("HELP", "FORM", "STATUS", "DANCE"):
            desk.receive(command_mail(f"{first.lower()}@example.org", word))
        desk.receive(
            order_mail(f"{first.lower()}@example.org", "w1", game.phase.id, "WRONG", "NOMINATE x")
        )
        clock.advance(hours=23, minutes=30)
        queue_reminders(moderator)
        deadlines.extend(moderator, "w1", "1d")
        deadlines.pause(moderator, "w1")
        deadlines.resume(moderator, "w1")
        host_substitute.substitute(moderator, "w1", second, "Newcomer", "newcomer@example.org")
        for _phase in range(3):
            resolve_phase(moderator, "w1")
            clock.advance(hours=23, minutes=30)
            queue_reminders(moderator)
        game = load(moderator, "w1")
        desk.receive(
            order_mail(f"{third.lower()}@example.org", "w1", game.phase.id, game.token(third), "")
        )
        # Conversations: a pack message and its relays, a question to the host and the answer.
        wolf = next(
            n for n in names if n != second and "pack" in game.rules.status(game.state, n).channels
        )
        for who, channel in ((wolf, "pack"), (third, "host")):
            desk.receive(
                replace(
                    order_mail(f"{who.lower()}@example.org", "w1", "", ""),
                    blocks=(),
                    messages=(MessageBlock("w1", channel, game.token(who), "Hello"),),
                )
            )
        reply_command(moderator, "w1", third, "Hello to you")
        kinds = checked(moderator.folder)
    assert {
        "welcome",
        "help",
        "form",
        "status",
        "reminder",
        "rejection",
        "notice",
        "report",
        "draft",
        "message",
    } <= kinds
