"""Each reader's language (docs/design.md: Each reader's language): the roster's
`language` column, the game option `language`, `[pbp] host_language`, and the renderer each
mail is written with. A game written before languages reads as English, unchanged."""

from __future__ import annotations

from tests.fixtures.harness import write_settings

from dataclasses import replace

import pytest

from pbp.desk import Desk
from pbp.errors import UserError
from pbp.game.create import create_game
from pbp.game.options import split_options, thread_language
from pbp.game.option_values import OptionValueError
from pbp.game.record_parts import RosterPlayer
from pbp.game.roster_file import parse_roster
from pbp.game.stored import load
from pbp.moderator import Moderator
from pbp.render.renderer import Renderer
from pbp.settings import Settings, load_settings
from tests.fixtures.harness import ROSTER, command_mail
from tests.fixtures.languages import german  # noqa: F401  (a fixture)
from pbp.daemon.outbox_sending import send_due


@pytest.fixture
def written_in(monkeypatch):
    """(language, template kind) of every mail rendered from now on."""
    seen: list[tuple[str, str]] = []
    render = Renderer.render

    def spy(self, kind, ruleset, **context):
        seen.append((self.language, kind))
        return render(self, kind, ruleset, **context)

    monkeypatch.setattr(Renderer, "render", spy)
    return seen


def test_the_roster_language_column_is_read_and_an_unwritten_language_refused(german):
    players = parse_roster(
        "name,email,timezone,forum_name,language\nAlice,a@x.org,,,de\nBruno,b@x.org\n"
    )
    assert [p.language for p in players] == ["de", "en"]
    with pytest.raises(UserError) as refused:
        parse_roster("name,email,language\nAlice,a@x.org,fr\n")
    assert str(refused.value) == "roster row 2: pbp does not write in 'fr'; choose one of en, de."


def test_an_english_player_is_stored_as_before_and_an_old_entry_reads_as_english():
    stored = RosterPlayer("Alice", "a@x.org").to_json()
    assert "language" not in stored
    assert RosterPlayer.from_json(stored).language == "en"
    assert RosterPlayer.from_json({**stored, "language": "de"}).to_json()["language"] == "de"


def test_the_game_option_language_names_the_thread_language(german):
    moderator_options, _ = split_options({"language": "DE"})
    assert thread_language(moderator_options) == "de"
    assert thread_language({}) == "en"
    with pytest.raises(OptionValueError, match="Option language: pbp does not write in 'xx'"):
        split_options({"language": "xx"})


def test_host_language_is_read_from_the_settings_and_checked_by_the_moderator(tmp_path, german):
    path = write_settings(
        tmp_path / "pbp.ini", {"pbp": {"data": tmp_path / "data", "host_language": "DE"}}
    )
    assert load_settings(str(path)).host_language == "de"
    write_settings(path, {"pbp": {"data": tmp_path / "data", "host_language": "12"}})
    with pytest.raises(UserError, match=r"host_language = '12' is not a language code"):
        load_settings(str(path))
    with pytest.raises(UserError, match=r"host_language: pbp does not write in 'fr'"):
        Moderator(Settings(data=tmp_path / "data", host_language="fr"))


def test_each_player_welcome_is_written_in_their_language(moderator, german, written_in):
    roster = [replace(ROSTER[0], language="de"), *ROSTER[1:]]
    game = create_game(moderator, "ballot", roster, seed="s")
    assert written_in == [
        ("de", "welcome"),
        ("en", "welcome"),
        ("en", "welcome"),
        ("en", "welcome"),
    ]
    assert load(moderator, game.id).roster.language_of("Alice") == "de"
    # German dates in Alice's form, English in Bruno's, as before.
    stored = load(moderator, game.id)
    assert stored.deadline_text("Alice").split(",")[0] in (
        "Mo.",
        "Di.",
        "Mi.",
        "Do.",
        "Fr.",
        "Sa.",
        "So.",
    )
    assert stored.deadline_text("Bruno")[:3] in ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def test_language_by_mail_changes_the_player_language_and_answers_in_it(
    moderator, sender, german, written_in
):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    desk = Desk(moderator)
    assert desk.receive(command_mail("alice@example.org", "LANGUAGE de")) == "processed"
    assert load(moderator, game.id).roster.language_of("Alice") == "de"
    assert written_in[-1] == ("de", "receipt")
    send_due(moderator.outbox, sender)
    receipt = sender.sent[-1].get_content()
    assert "Ab jetzt ist deine Post aus diesem Spiel in Deutsch (de) geschrieben." in receipt
    desk.receive(command_mail("alice@example.org", "STATUS"))
    assert written_in[-1] == ("de", "status_reply")


def test_a_language_pbp_does_not_write_changes_nothing(moderator, sender, german):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    send_due(moderator.outbox, sender)
    assert Desk(moderator).receive(command_mail("alice@example.org", "LANGUAGE fr")) == "rejected"
    assert load(moderator, game.id).roster.language_of("Alice") == "en"
    send_due(moderator.outbox, sender)
    assert (
        "Your language did not change: pbp does not write in 'fr'. Send LANGUAGE and one of en, de, "
        "e.g. LANGUAGE de." in " ".join(sender.sent[-1].get_content().split())
    )


@pytest.mark.parametrize(
    "line, command",
    [
        ("LANGUAGE de", "LANGUAGE de"),
        ("language ES", "LANGUAGE es"),
        ("Lang de", "LANGUAGE de"),
        ("LANGUAGE", "LANGUAGE"),
    ],
)
def test_the_language_command_is_read_from_the_first_line(line, command):
    from pbp.mail.commands import find_command

    assert find_command(f"{line}\n\nthanks", "") == command


def test_a_long_lived_holder_keeps_one_renderer_per_language_across_moderators(tmp_path, german):
    kept: dict[str, Renderer] = {}
    settings = Settings(data=tmp_path / "data", host_language="de")
    with Moderator(settings) as first:
        first.keep_renderers(kept)
        german_renderer = first.host_renderer
    with Moderator(settings) as second:  # the next cycle of `pbp run`
        second.keep_renderers(kept)
        assert second.host_renderer is german_renderer and second.renderer is kept["en"]
    assert set(kept) == {"en", "de"} and german_renderer.language == "de"


def test_a_newcomer_reads_their_own_language_and_the_leaving_player_theirs(
    moderator, german, written_in
):
    from pbp.host.substitute import substitute

    game = create_game(moderator, "ballot", ROSTER, seed="s")
    del written_in[:]
    substitute(moderator, game.id, "Alice", "Zoe", "zoe@example.org", language="de")
    assert ("en", "goodbye") in written_in and ("de", "welcome") in written_in
    assert load(moderator, game.id).roster.of("Alice").language == "de"
    with pytest.raises(UserError, match="--language: pbp does not write in 'fr'"):
        substitute(moderator, game.id, "Bruno", "Yan", "yan@example.org", language="fr")
