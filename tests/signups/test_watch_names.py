"""WATCH and UNWATCH have German and Spanish names as the other sign-up words do
(docs/design.md: Languages — sign-up words): `ZUSEHEN`/`OBSERVAR` and `WEGSEHEN`/
`DESOBSERVAR` are read from every sender whatever their language, and the German and
Spanish mail names them where the English names WATCH and UNWATCH."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.simulation import player_names
from pbp.mail.command_names import COMMAND_NAMES
from pbp.mail.signup_words import find_signup
from pbp.render.languages import locale_folder

NAMES = {"de": ("ZUSEHEN", "WEGSEHEN"), "es": ("OBSERVAR", "DESOBSERVAR")}


@pytest.mark.parametrize("code", sorted(NAMES))
def test_every_language_s_watch_words_are_read_from_everyone(code):
    watch, unwatch = NAMES[code]
    assert (COMMAND_NAMES[code]["WATCH"], COMMAND_NAMES[code]["UNWATCH"]) == (watch, unwatch)
    assert find_signup(f"{watch} ww1 LANG={code}", "") == f"WATCH ww1 LANG={code}"
    assert find_signup(f"Hallo!\n{unwatch.lower()} ww1 please", "") == "UNWATCH ww1"
    assert find_signup("", f"Re: {watch.title()} ww1") == "WATCH ww1"


@pytest.mark.parametrize("code", sorted(NAMES))
def test_no_german_or_spanish_mail_says_watch_or_unwatch(code):
    catalog = (locale_folder() / code / "LC_MESSAGES" / "mail.po").read_text(encoding="utf-8")
    translations = "\n".join(re.findall(r'^msgstr.*(?:\n".*")*', catalog, re.MULTILINE))
    assert not re.search(r"\b(UN)?WATCH\b", translations)
    assert all(name in translations for name in NAMES[code])


@pytest.mark.parametrize("code", sorted(NAMES))
def test_a_watcher_signs_up_and_off_in_their_words_and_reads_them_back(tmp_path: Path, code):
    from pbp.composition import ComposedModerator
    from pbp.desk import Desk
    from pbp.game.create import create_game
    from pbp.game.record_parts import RosterPlayer
    from pbp.ports import InboundMail
    from pbp.settings import Settings
    from tests.fixtures.clocks import Clock

    watch, unwatch = NAMES[code]
    settings = Settings(data=tmp_path / "data", from_address="pbp@games.example")
    with ComposedModerator(settings, clock=Clock()) as moderator:
        roster = [RosterPlayer(name, f"{name.lower()}@players.example") for name in player_names(8)]
        create_game(
            moderator, "werewolf", roster, seed="1", options={"spectators": "all"}, game_id="ww1"
        )
        desk, number = Desk(moderator), iter(range(100))
        game = moderator.folder.game("ww1")

        def send(body: str) -> str:
            key = next(number)
            return desk.receive(
                InboundMail(
                    key=f"k{key}",
                    sha256=f"s{key}",
                    sender="fan@x.example",
                    message_id=f"<m{key}@x>",
                    subject="watch",
                    commands=(find_signup(body, ""),),
                )
            )

        def confirm() -> str:
            pending = game.record()["watch_pending"]
            return send(f"CONFIRM ww1 {next(iter(pending))}")

        assert send(f"{watch} ww1 LANG={code}") == "processed"
        assert confirm() == "processed"
        assert game.record()["watcher_languages"] == {"fan@x.example": code}
        assert game.record()["watchers"] == ["fan@x.example"]
        bodies = "\n".join(mail["body"] for mail in game.outbox.all())
        assert f"{unwatch} ww1" in bodies and not re.search(r"\b(UN)?WATCH\b", bodies)
        assert send(f"{unwatch} ww1") == "processed"
        assert confirm() == "processed"
        assert not game.record().get("watchers")
