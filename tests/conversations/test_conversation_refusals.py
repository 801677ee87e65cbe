"""How the desk answers message blocks it does not relay (docs/design.md: Conversations;
Hostile input — one clear sentence, nothing changes): too long, a wrong token, a BEGIN
line naming a character, an empty form; and what it keeps of one it relays."""

from __future__ import annotations

import pytest

from pbp.composition import ComposedModerator
from pbp.conversations.channels import members, message_log
from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.mail.limits import MAX_MESSAGE_CHARS
from pbp.ports import InboundMail, MessageBlock
from pbp.game.record_parts import RosterPlayer
from pbp.settings import Settings
from tests.fixtures.clocks import Clock

NAMES = ["Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hugo"]
ROLES = "werewolf,howler,mason,mason,romantic,weregerbil,seer,villager"


@pytest.fixture
def table(tmp_path):
    settings = Settings(
        data=tmp_path / "data", from_address="pbp@games.example", replies_per_sender_per_day=3
    )
    with ComposedModerator(settings, clock=Clock()) as moderator:
        roster = [RosterPlayer(name, f"{name.lower()}@example.org") for name in NAMES]
        create_game(
            moderator, "werewolf", roster, seed="4", options={"roles": ROLES}, game_id="ww1"
        )
        yield moderator


def send(
    moderator, sender: str, channel: str, text: str, token: str | None = None, speaker: str = ""
) -> list[dict]:
    """The mails queued for one message block from `sender`."""
    game = load(moderator, "ww1")
    before = len(game.file.outbox)
    count = before + len(message_log(game.file))
    block = MessageBlock("ww1", channel, token or game.token(sender), text, speaker=speaker)
    Desk(moderator).receive(
        InboundMail(
            key=f"k{count}",
            sha256=f"s{count}",
            sender=f"{sender.lower()}@example.org",
            message_id=f"<m{count}@example.org>",
            subject="message",
            messages=(block,),
        )
    )
    return [dict(row) for row in load(moderator, "ww1").file.outbox.all()[before:]]


def mason_pair(moderator) -> list[str]:
    return members(load(moderator, "ww1"), "masons")


def test_a_message_over_the_cap_is_refused_whole_not_cut(table):
    first, second = mason_pair(table)
    (refusal,) = send(table, first, "masons", "x" * (MAX_MESSAGE_CHARS + 1))
    assert refusal["recipient"] == first and "Message NOT sent" in refusal["subject"]
    assert f"at most {MAX_MESSAGE_CHARS:,}" in refusal["body"]
    assert len(message_log(load(table, "ww1").file)) == 0
    (receipt, relay) = send(table, first, "masons", "x" * MAX_MESSAGE_CHARS)
    assert relay["recipient"] == second and "x" * MAX_MESSAGE_CHARS in relay["body"]


def test_a_wrong_token_is_refused_like_an_order_block(table):
    first, _ = mason_pair(table)
    (refusal,) = send(table, first, "masons", "hi", token="guess")
    assert "the TOKEN is not your token for ww1" in refusal["body"]


def test_only_the_host_may_name_a_character_after_the_channel(table):
    first, second = mason_pair(table)
    (refusal,) = send(table, first, "masons", "hi", speaker=second)
    assert "names more than the game and the channel" in refusal["body"]


def test_an_unfilled_message_form_changes_nothing(table):
    first, _ = mason_pair(table)
    (reply,) = send(table, first, "masons", "")
    assert "with nothing written in it, so nothing was sent" in reply["body"]
    assert len(message_log(load(table, "ww1").file)) == 0


def test_a_relayed_message_is_kept_with_its_time_and_counted_per_day(table):
    first, second = mason_pair(table)
    for number in range(3):
        assert len(send(table, first, "team", f"note {number}")) == 2  # receipt and relay
    # The day's cap (replies_per_sender_per_day) is reached: not relayed, and, the reply cap
    # being the same, not even answered (the flood guard of every reply).
    assert send(table, first, "team", "one too many") == []
    rows = message_log(load(table, "ww1").file).all()
    assert [(r["channel"], r["sender"], r["text"], r["recipients"]) for r in rows] == [
        ("masons", first, f"note {n}", [second]) for n in range(3)
    ]
    assert all(r["received"].startswith("2030-01-01") for r in rows)
