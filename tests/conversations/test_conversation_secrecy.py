"""Secrecy of the conversations (docs/design.md: Conversations — "Sending to a channel the
sender is not in is refused without saying whether the channel exists").

Twin games, as in the secrecy suites: two Werewolf games dealt from the same seed whose role
lists differ in one hidden fact: in the first, two players are Masons; in the twin, the
same two are Villagers, so the channel `masons` exists only in the first. Every other
player's role, status and channels are the same in both. Hypothesis picks the game's seed,
the sender, the channel they name and the text, and the desk judges the same message in
both games:

- nobody outside the channel gets anything: every mail queued for the message goes to the
  sender (their receipt or refusal) or to a living member of the channel;
- a player outside `masons` is refused in words byte-identical in both twins (tokens
  aside), and identical to the refusal for a channel that exists in neither.

The twin comparisons run in every language pbp writes (docs/design.md: Catalog checks).
"""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbp.composition import ComposedModerator
from pbp.conversations.channels import members
from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.resolution import resolve_phase
from pbp.game.stored import load
from pbp.ports import InboundMail, MessageBlock
from pbp.render.languages import SOURCE_LANGUAGE, languages
from pbp.game.record_parts import RosterPlayer
from pbp.settings import Settings
from tests.fixtures.clocks import Clock
from tests.fixtures.languages import write_everything_in
from pbp.daemon.outbox_sending import build as outbox_mail

NAMES = ["Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hugo"]
WITH_MASONS = "werewolf,howler,mason,mason,romantic,weregerbil,seer,villager"
TWIN = "werewolf,howler,villager,villager,romantic,weregerbil,seer,villager"
CHANNELS = ("masons", "pack", "gerbils", "lovers", "team", "host", "reds", "vampires")
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12)


def play(
    root: Path,
    roles: str,
    seed: int,
    sender: str,
    channel: str,
    text: str,
    language: str = SOURCE_LANGUAGE,
) -> tuple[list[dict], list[str]]:
    """The mails queued when `sender` writes `text` to `channel` in a fresh game (at N0),
    pbp writing in `language`, and the channel's members. Tokens are replaced by `<token>`."""
    settings = Settings(
        data=root / "data", from_address="pbp@games.example", replies_per_sender_per_day=50
    )
    with ComposedModerator(settings, clock=Clock()) as moderator:
        write_everything_in(moderator, language)
        roster = [RosterPlayer(name, f"{name.lower()}@example.org") for name in NAMES]
        create_game(
            moderator, "werewolf", roster, seed=str(seed), options={"roles": roles}, game_id="ww1"
        )
        game = load(moderator, "ww1")
        token = game.token(sender)
        before = len(game.file.outbox)
        mail = InboundMail(
            key="1:1",
            sha256="0" * 64,
            sender=f"{sender.lower()}@example.org",
            message_id="<m1@example.org>",
            subject="message",
            messages=(MessageBlock("ww1", channel, token, text),),
        )
        Desk(moderator).receive(mail)
        game = load(moderator, "ww1")
        rows = [dict(row) for row in game.file.outbox.all()[before:]]
        named = (
            game.rules.status(game.state, sender).channels[0]
            if channel == "team" and len(game.rules.status(game.state, sender).channels) == 1
            else channel
        )
        team = members(game, named) if named != "host" else []
        tokens = game.record.tokens.values()
    for row in rows:
        for secret in tokens:
            row["body"] = row["body"].replace(secret, "<token>")
    return rows, team


SECRECY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SECRECY
@given(
    seed=st.integers(0, 10_000),
    sender=st.sampled_from(NAMES),
    channel=st.one_of(st.sampled_from(CHANNELS), WORDS),
    text=st.text(min_size=1, max_size=80).filter(lambda t: t.strip() and "END" not in t.upper()),
)
def test_no_relay_receipt_or_refusal_reaches_anyone_outside_the_channel(
    seed, sender, channel, text
):
    with tempfile.TemporaryDirectory() as root:
        rows, team = play(Path(root), WITH_MASONS, seed, sender, channel, text)
    assert rows, "the sender always gets an answer"
    for row in rows:
        assert row["recipient"] == sender or row["recipient"] in team, (
            row["recipient"],
            channel,
            team,
        )
    relays = [row for row in rows if row["kind"] == "message"]
    assert all(row["recipient"] != sender for row in relays)
    if relays:
        assert sender in team


@pytest.mark.parametrize("language", languages())
@SECRECY
@given(
    seed=st.integers(0, 10_000),
    sender=st.sampled_from(NAMES),
    other=WORDS.filter(lambda w: w not in CHANNELS),
)
def test_a_refusal_reads_the_same_whether_the_channel_exists_or_not(language, seed, sender, other):
    """In every language; the refusal's English words are checked in English."""
    with tempfile.TemporaryDirectory() as root:
        first, masons = play(
            Path(root) / "a", WITH_MASONS, seed, sender, "masons", "Hello Masons", language
        )
        twin, _ = play(Path(root) / "b", TWIN, seed, sender, "masons", "Hello Masons", language)
        elsewhere, _ = play(
            Path(root) / "c", WITH_MASONS, seed, sender, other, "Hello Masons", language
        )
    if sender in masons:
        return  # a Mason's message goes through; the twin differs in the sender's own role
    (refusal,) = first
    (twin_refusal,) = twin
    (other_refusal,) = elsewhere
    assert (refusal["subject"], refusal["body"]) == (twin_refusal["subject"], twin_refusal["body"])
    assert refusal["subject"] == other_refusal["subject"]
    if language != SOURCE_LANGUAGE:
        return
    assert "Message NOT sent" in refusal["subject"]
    named_other = f"Your message to {other} was not sent"
    assert named_other in other_refusal["body"]
    assert refusal["body"] == other_refusal["body"].replace(
        named_other, "Your message to masons was not sent"
    )


# ------------------------------------------------------------------ who got mail
QUIET_ROLES = "werewolf,werewolf,seer,villager,villager,villager,villager,villager"


def received(moderator: ComposedModerator, row: dict, tokens) -> tuple:
    """One outbox row as its recipient receives it: every header of the mail pbp builds
    (Message-ID, threading and all) and its text, tokens blanked (drawn afresh per game)."""
    message = outbox_mail(moderator.outbox, row)
    text = (
        "\n".join(f"{name}: {value}" for name, value in message.items())
        + "\n\n"
        + message.get_content()
    )
    for token in tokens:
        text = text.replace(token, "<token>")
    return row["address"], text


def observed(
    root: Path,
    seed: int,
    observer: str,
    others: dict[str, int],
    pack_messages: int,
    language: str = SOURCE_LANGUAGE,
) -> list[tuple]:
    """Everything `observer` receives in a Werewolf game at N0 in which they mail FORM,
    `others` mail FORM (so many times each) and the pack exchanges `pack_messages`
    messages, then they mail FORM again and the night is resolved; pbp writes in
    `language`."""
    settings = Settings(
        data=root / "data", from_address="pbp@games.example", replies_per_sender_per_day=50
    )
    with ComposedModerator(settings, clock=Clock()) as moderator:
        write_everything_in(moderator, language)
        roster = [RosterPlayer(name, f"{name.lower()}@example.org") for name in NAMES]
        create_game(
            moderator,
            "werewolf",
            roster,
            seed=str(seed),
            options={"roles": QUIET_ROLES},
            game_id="ww1",
        )
        desk, number, written = Desk(moderator), iter(range(1, 1_000)), Counter()

        def mail(sender: str, **what) -> None:
            n, written[sender] = (
                next(number),
                written[sender] + 1,
            )  # each sender's mail has its own ids
            desk.receive(
                InboundMail(
                    key=f"1:{n}",
                    sha256=f"{n:064d}",
                    sender=f"{sender.lower()}@example.org",
                    message_id=f"<{sender}.{written[sender]}@example.org>",
                    subject="hello",
                    **what,
                )
            )

        game = load(moderator, "ww1")
        wolves = members(game, "pack")
        mail(observer, commands=("FORM",))
        for other, times in others.items():
            for _ in range(times):
                mail(other, commands=("FORM",))
        for n in range(pack_messages):
            wolf = wolves[n % len(wolves)]
            mail(
                wolf,
                messages=(MessageBlock("ww1", "pack", game.token(wolf), f"Whom tonight? ({n})"),),
            )
        mail(observer, commands=("FORM",))
        resolve_phase(moderator, "ww1")
        tokens = load(moderator, "ww1").record.tokens.values()
        address = f"{observer.lower()}@example.org"
        return [
            received(moderator, row, tokens)
            for row in moderator.folder.game("ww1").outbox.all()
            if row["address"] == address
        ]


@pytest.mark.parametrize("language", languages())
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), data=st.data())
def test_who_else_got_mail_shows_in_nothing_a_player_receives(language, seed, data):
    """Message-IDs once carried one counter for the whole game: a villager who mailed FORM
    twice saw it jump by the pack's messages and the other players' receipts between. In
    twin games that differ only in the mail other players sent and got, everything one
    player receives, every header included, is byte for byte the same."""
    with tempfile.TemporaryDirectory() as root:
        probe = Settings(data=Path(root) / "probe", from_address="pbp@games.example")
        with ComposedModerator(probe, clock=Clock()) as moderator:
            roster = [RosterPlayer(name, f"{name.lower()}@example.org") for name in NAMES]
            game = create_game(
                moderator,
                "werewolf",
                roster,
                seed=str(seed),
                options={"roles": QUIET_ROLES},
                game_id="ww1",
            )
            wolves = members(game, "pack")
        villagers = [name for name in NAMES if name not in wolves]
        observer = data.draw(st.sampled_from(villagers), label="observer")
        others = data.draw(
            st.dictionaries(
                st.sampled_from([n for n in NAMES if n != observer]), st.integers(1, 3), max_size=4
            ),
            label="others",
        )
        pack_messages = data.draw(st.integers(1, 4), label="pack messages")
        busy = observed(Path(root) / "busy", seed, observer, others, pack_messages, language)
        quiet = observed(Path(root) / "quiet", seed, observer, {}, 0, language)
    assert len(busy) >= 4  # the welcome, two forms, the night's report
    assert busy == quiet
