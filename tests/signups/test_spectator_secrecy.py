"""Secrecy of the spectators' mail (docs/design.md: Sign-ups and spectators): twin games.

Hypothesis draws a Werewolf game (players, seed, how many phases) and plays it twice with
the same scripted orders: once with `spectators=off` and no watchers, once with
`spectators=dead` or `all` and some confirmed watchers (confirmed through the order desk,
as by mail). Then:

- every mail of the second game that is not spectator or sign-up mail is the same, row for
  row (recipient, address, kind, phase, subject, body), as in the first: a living player's
  mail does not change because spectators exist. The one sentence that differs is in a
  dying player's last report, which tells them they will watch from now on instead of
  getting no more mail;
- every spectator mail goes to a player who was dead once that phase resolved, or (option
  `all` only) to a confirmed watcher, and each of them gets one per resolution.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.seat_names import player_names
from pbp.composition import ComposedModerator
from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.host.orders import submit
from pbp.ports import InboundMail, MessageBlock
from pbp.render.languages import SOURCE_LANGUAGE, languages, translations
from pbp.game.record_parts import RosterPlayer
from pbp.settings import Settings
from pbp.signups.spectators import KIND as SPECTATOR
from tests.fixtures.clocks import Clock
from tests.fixtures.languages import write_everything_in

SIGNUP = "signup"


def mail(number: int, sender: str, command: str) -> InboundMail:
    return InboundMail(
        key=f"k{number}",
        sha256=f"s{number}",
        sender=sender,
        message_id=f"<m{number}@x.example>",
        subject="watch",
        commands=(command,),
    )


def watch(moderator: ComposedModerator, game_id: str, address: str, number: int) -> None:
    """WATCH, then CONFIRM with the code from the reply, through the order desk (a game
    whose option is not `all` refuses the WATCH: there is no code)."""
    desk = Desk(moderator)
    desk.receive(mail(number, address, f"WATCH {game_id}"))
    pending = moderator.folder.game(game_id).record().get("watch_pending", {})
    for code, request in pending.items():
        if request["email"] == address:
            desk.receive(mail(number + 1, address, f"CONFIRM {game_id} {code}"))


def play(
    root: Path,
    count: int,
    seed: str,
    phases: int,
    spectators: str,
    watchers: int,
    talk: tuple[str, ...] = (),
    pack: set[str] | None = None,
    language: str = SOURCE_LANGUAGE,
):
    """The game's outbox rows and, per resolved phase, who was dead once it resolved. With
    `talk`, a living wolf writes its next text to the pack before each resolution (and the
    pack's members are added to `pack`). pbp writes in `language`."""
    moderator = ComposedModerator(
        Settings(data=root, from_address="pbp@games.example", replies_per_sender_per_day=50),
        clock=Clock(),
    )
    write_everything_in(moderator, language)
    try:
        roster = [
            RosterPlayer(name, f"{name.lower()}@players.example") for name in player_names(count)
        ]
        create_game(
            moderator,
            "werewolf",
            roster,
            seed=seed,
            options={"spectators": spectators},
            game_id="ww1",
        )
        addresses = [f"watcher{n}@elsewhere.example" for n in range(watchers)]
        for number, address in enumerate(addresses):
            watch(moderator, "ww1", address, 10 * number)
        dead_after: dict[str, set[str]] = {}
        for number in range(phases):
            game = load(moderator, "ww1")
            if game.phase is None:
                break
            for name in game.phase.actors:
                orders = game.rules.scripted_orders(game.state, name, seed)
                if orders.strip():
                    submit(moderator, "ww1", name, orders)
            if number < len(talk):
                (pack if pack is not None else set()).update(
                    say_to_pack(moderator, game, talk[number], 1000 + number)
                )
            summary = resolve_phase(moderator, "ww1")
            after = load(moderator, "ww1")
            dead_after[summary.phase] = {
                e.email
                for e in after.record.roster
                if not after.rules.status(after.state, e.name).alive
            }
        tokens = load(moderator, "ww1").record.tokens
        rows = [
            {**row, "body": _without_tokens(row["body"], tokens)}
            for row in moderator.folder.game("ww1").outbox.all()
        ]
        return rows, dead_after, set(addresses)
    finally:
        moderator.close()


def say_to_pack(moderator: ComposedModerator, game, text: str, number: int) -> list[str]:
    """The first living wolf writes `text` to the pack, by mail through the order desk;
    returns the pack's members."""
    wolves = [name for name in game.record.characters if "pack" in game.status(name).channels]
    if not wolves:
        return []
    wolf = wolves[0]
    Desk(moderator).receive(
        InboundMail(
            key=f"k{number}",
            sha256=f"s{number}",
            sender=game.roster.of(wolf).email,
            message_id=f"<m{number}@x.example>",
            subject="pack",
            messages=(MessageBlock("ww1", "pack", game.token(wolf), text),),
        )
    )
    return wolves


def _without_tokens(body: str, tokens: dict[str, str]) -> str:
    """The tokens are drawn at random for each game: each is blanked to its owner's name."""
    for name, token in tokens.items():
        body = body.replace(token, f"<token of {name}>")
    return body


WILL_WATCH = (
    "As a dead player you give no more orders, and this is the last report of\n"
    "your own. From now on you watch: after each phase you get the host's\n"
    "view of it, until the game ends."
)
LAST_MAIL = (
    "As a dead player you give no more orders, and this is the last report\n"
    "you get. Thank you for playing."
)


def shown(row: dict) -> tuple:
    return (
        row["recipient"],
        row["address"],
        row["kind"],
        row["phase"],
        row["message_id"],
        row["subject"],
        row["body"],
    )


def shown_as_if_unwatched(row: dict) -> tuple:
    """The row as it reads with no spectators: a dying player's last report then says no
    more mail will come."""
    return (*shown(row)[:-1], row["body"].replace(WILL_WATCH, LAST_MAIL))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(8, 10),
    seed=st.text("abcdef0123456789", min_size=1, max_size=6),
    phases=st.integers(3, 7),
    spectators=st.sampled_from(["dead", "all"]),
    watchers=st.integers(0, 2),
)
def test_spectator_mail_reaches_only_the_dead_and_watchers_and_changes_no_living_players_mail(
    count, seed, phases, spectators, watchers
):
    with tempfile.TemporaryDirectory() as folder:
        plain, _, _ = play(Path(folder) / "a", count, seed, phases, "off", 0)
        watched, dead_after, addresses = play(
            Path(folder) / "b", count, seed, phases, spectators, watchers
        )
    assert not [row for row in plain if row["kind"] == SPECTATOR]
    assert [shown_as_if_unwatched(r) for r in watched if r["kind"] not in (SPECTATOR, SIGNUP)] == [
        shown(r) for r in plain
    ]
    told = [r for r in watched if WILL_WATCH in r["body"]]
    assert {r["address"] for r in told} <= set().union(*dead_after.values(), set())
    assert all(LAST_MAIL not in r["body"] for r in watched)
    for phase, dead in dead_after.items():
        got = sorted(
            r["address"] for r in watched if r["kind"] == SPECTATOR and r["phase"] == phase
        )
        expected = dead | (addresses if spectators == "all" else set())
        assert got == sorted(expected)


PACK_TALK = st.lists(
    st.text("abcdefghij klmnop", min_size=1, max_size=30).filter(str.strip), min_size=7, max_size=7
)


@pytest.mark.parametrize("language", languages())
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(8, 10),
    seed=st.text("abcdef0123456789", min_size=1, max_size=6),
    phases=st.integers(2, 6),
    spectators=st.sampled_from(["dead", "all"]),
    watchers=st.integers(0, 2),
    talk=PACK_TALK,
    twin_talk=PACK_TALK,
)
def test_what_the_pack_says_reaches_the_spectators_and_changes_no_other_living_players_mail(
    language, count, seed, phases, spectators, watchers, talk, twin_talk
):
    """Twin games with the same spectators, differing only in what the pack says each
    phase: every mail to a player outside the pack, spectators' mail aside, is the same row
    for row, in every language pbp writes; the spectators read the pack's words of each
    phase they watch."""
    wolves: set[str] = set()
    with tempfile.TemporaryDirectory() as folder:
        first, _, _ = play(
            Path(folder) / "a",
            count,
            seed,
            phases,
            spectators,
            watchers,
            tuple(talk),
            wolves,
            language,
        )
        twin, _, _ = play(
            Path(folder) / "b",
            count,
            seed,
            phases,
            spectators,
            watchers,
            tuple(twin_talk),
            wolves,
            language,
        )

    def outside(rows):
        return [
            shown(r)
            for r in rows
            if r["kind"] not in (SPECTATOR, SIGNUP) and r["recipient"] not in wolves
        ]

    assert outside(first) == outside(twin)
    for rows, said in ((first, talk), (twin, twin_talk)):
        for row in rows:
            if (
                row["kind"] == SPECTATOR
                and translations(language).gettext("Said in the team channels") in row["body"]
            ):
                assert any(text.strip() in row["body"] for text in said)
