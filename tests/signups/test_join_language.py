"""A sign-up names the language its player reads (docs/design.md: Each reader's language):
`JOIN ww3 Alice LANG=de`, or `LANG: de` on a line right after the JOIN line; it answers in
that language, reaches the roster, and a language pbp does not write in is refused in one
sentence, changing nothing."""

from __future__ import annotations

from pbp.storage.signup_record import SignupEntry

import pytest

from engine.seat_names import player_names
from pbp.game.stored import load
from pbp.mail.signup_words import find_signup
from pbp.render.renderer import Renderer
from pbp.signups.details import JoinDetails
from pbp.signups.starting import start_signed_up
from tests.fixtures.languages import german  # noqa: F401  (a fixture)
from tests.signups.test_signup_details import post  # noqa: F401  (a fixture)


@pytest.mark.parametrize(
    "body, found",
    [
        ("JOIN ww3 Alice LANG=de", "JOIN ww3 Alice LANG=de"),
        (
            "JOIN ww3 Alice\nTZ: Europe/Berlin\nLanguage: de\nFORUM: al",
            "JOIN ww3 Alice TZ: Europe/Berlin Language: de FORUM: al",
        ),
    ],
)
def test_the_language_comes_on_the_join_line_or_right_after_it(body, found):
    assert find_signup(body, "") == found


def test_join_details_read_the_language():
    details = JoinDetails.parse("Alice TZ=Europe/Berlin LANG=DE FORUM=al k")
    assert (details.name, details.timezone, details.forum_name, details.language) == (
        "Alice",
        "Europe/Berlin",
        "al k",
        "de",
    )
    assert JoinDetails.parse("Alice").reads == "en"
    assert (
        "language"
        not in SignupEntry(
            "Alice", "a@x.example", language=JoinDetails.parse("Alice").language
        ).to_json()
    )


def test_a_sign_up_in_german_is_answered_in_german_and_reaches_the_roster(
    post, german, monkeypatch
):
    languages: list[str] = []
    render = Renderer.render
    monkeypatch.setattr(
        Renderer,
        "render",
        lambda self, kind, ruleset, **facts: (
            languages.append(self.language),
            render(self, kind, ruleset, **facts),
        )[1],
    )
    assert post.join("ann@x.example", "JOIN ww3 Ann LANG=de") == "processed"
    assert languages == ["de", "de"]  # the request's answer and the confirmation's
    assert post.record().entries[0].language == "de"
    for name in player_names(8)[1:]:
        assert post.join(f"{name.lower()}@x.example", f"JOIN ww3 {name}") == "processed"
    assert (
        "language" not in post.record().entries[1].to_json()
    )  # English is stored as before: not at all
    game = start_signed_up(post.moderator, "ww3")
    roster = load(post.moderator, game.id).record.roster
    assert roster.of("Ann").language == "de" and roster.of(player_names(8)[1]).language == "en"


def test_a_language_pbp_does_not_write_is_refused(post, german):
    assert post.send("ann@x.example", "JOIN ww3 Ann LANG=klingon") == "rejected"
    assert (
        "The language 'klingon' is not one pbp writes in: write one of en, de, e.g. JOIN ww3 Ann LANG=de."
        in post.last_reply("ann@x.example")
    )
    assert post.record().entries == () and not post.record().pending


def test_a_watcher_reads_their_own_language_else_the_thread_one(tmp_path, german, monkeypatch):
    from pbp.composition import ComposedModerator
    from pbp.desk import Desk
    from pbp.game.create import create_game
    from pbp.game.record_parts import RosterPlayer
    from pbp.game.resolution import resolve_phase
    from pbp.ports import InboundMail
    from pbp.settings import Settings
    from tests.fixtures.clocks import Clock

    assert find_signup("WATCH ww1 LANG=de please", "") == "WATCH ww1 LANG=de"
    languages: list[tuple[str, str]] = []
    render = Renderer.render
    monkeypatch.setattr(
        Renderer,
        "render",
        lambda self, kind, ruleset, **facts: (
            languages.append((self.language, kind)),
            render(self, kind, ruleset, **facts),
        )[1],
    )
    settings = Settings(data=tmp_path / "data", from_address="pbp@games.example")
    with ComposedModerator(settings, clock=Clock()) as moderator:
        roster = [RosterPlayer(name, f"{name.lower()}@players.example") for name in player_names(8)]
        create_game(
            moderator, "werewolf", roster, seed="1", options={"spectators": "all"}, game_id="ww1"
        )
        desk, number = Desk(moderator), iter(range(100))

        def send(sender: str, body: str) -> str:
            key = next(number)
            return desk.receive(
                InboundMail(
                    key=f"k{key}",
                    sha256=f"s{key}",
                    sender=sender,
                    message_id=f"<m{key}@x>",
                    subject="watch",
                    commands=(find_signup(body, ""),),
                )
            )

        def code(address: str) -> str:
            pending = moderator.folder.game("ww1").record()["watch_pending"]
            return next(c for c, request in pending.items() if request["email"] == address)

        assert send("bad@x.example", "WATCH ww1 LANG=klingon") == "rejected"
        assert (
            "pbp does not write in 'klingon'"
            in moderator.folder.game("ww1").outbox.all()[-1]["body"]
        )
        for address, body in (
            ("fan@x.example", "WATCH ww1 LANG=de"),
            ("other@x.example", "WATCH ww1"),
        ):
            send(address, body)
            assert send(address, f"CONFIRM ww1 {code(address)}") == "processed"
        assert moderator.folder.game("ww1").record()["watcher_languages"] == {"fan@x.example": "de"}
        assert [language for language, kind in languages if kind == "signup"][-4:] == [
            "de",
            "de",
            "en",
            "en",
        ]
        del languages[:]
        resolve_phase(moderator, "ww1")
        assert sorted(language for language, kind in languages if kind == "spectator") == [
            "de",
            "en",
        ]
