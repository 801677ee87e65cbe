"""`pbp demo --language de` (docs/design.md: Each reader's language): every player, the
host and the thread read German; the demo plays to its end. Until the shipped catalogs
translate the templates, the test's own German catalog stands in for them, and the German
a player reads is the dates Babel writes (weekdays, months) beside the renderer chosen."""

from __future__ import annotations

import re
from mailbox import Maildir

from pbp.demo import play_demo
from pbp.game.stored import record_of
from pbp.render.renderer import Renderer
from pbp.storage.datafolder import DataFolder
from tests.fixtures.languages import german  # noqa: F401  (a fixture)

GERMAN_DAY = re.compile(
    r"\b(Mo|Di|Mi|Do|Fr|Sa|So)\., \d{1,2}\. (Jan|Feb|März|Apr|Mai|Juni|Juli|Aug|Sept|Okt|Nov|Dez)\.? "
)


def test_a_whole_demo_plays_in_german(tmp_path, german, monkeypatch):
    languages: set[str] = set()
    render = Renderer.render
    monkeypatch.setattr(
        Renderer,
        "render",
        lambda self, kind, ruleset, **facts: (
            languages.add(self.language),
            render(self, kind, ruleset, **facts),
        )[1],
    )
    data = tmp_path / "demo"
    outcome = play_demo("werewolf", 8, seed="1", data=data, say=lambda line: None, language="de")
    assert outcome.result and outcome.mails_sent > 50
    assert languages == {"de"}  # every mail: the players', the host's
    folder = DataFolder(data)
    (game_id,) = folder.game_ids()
    record = record_of(folder.game(game_id))
    assert {player.language for player in record.roster} == {"de"}
    assert record.moderator_options["language"] == "de"
    folder.close()
    mail = [
        message.get_payload(decode=True).decode("utf-8")
        for message in Maildir(data / "mail" / "alice@players.invalid", create=False)
    ]
    assert any(GERMAN_DAY.search(body) for body in mail), mail[0][:2000]
    assert not any(
        re.search(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} \w{3} \d{4}", body) for body in mail
    )


def test_an_english_demo_keeps_english(tmp_path, monkeypatch):
    languages: set[str] = set()
    render = Renderer.render
    monkeypatch.setattr(
        Renderer,
        "render",
        lambda self, kind, ruleset, **facts: (
            languages.add(self.language),
            render(self, kind, ruleset, **facts),
        )[1],
    )
    outcome = play_demo("werewolf", 8, seed="1", data=tmp_path / "demo", say=lambda line: None)
    assert outcome.result and languages == {"en"}


def test_demo_refuses_a_language_pbp_does_not_write(tmp_path, capsys):
    from pbp.cli import main

    assert main(["demo", "--language", "xx", "--keep", str(tmp_path / "kept")]) != 0
    assert "--language: pbp does not write in 'xx'; choose one of en" in capsys.readouterr().err
    assert not (tmp_path / "kept").exists()
