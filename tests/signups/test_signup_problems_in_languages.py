"""A refused sign-up mail is answered in its sender's language (their LANG=, else the
game's), every problem worded in it (docs/design.md: Refusals in every language): a time
zone, a language or a forum name that cannot be used, a name taken or refused by the roster
rules, a LEAVE without a sign-up, a CONFIRM whose JOIN can no longer be used. Such an
answer holds no English and no line over 72 columns; an English sender's is as before. The
Validity check's grammar errors and a thread vote the rules refuse are worded the same way."""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrderError, OrderSyntaxError
from engine.infiltration.validity.statements import parse_statement
from engine.infiltration.validity.words import GRAMMAR_HELP, GRAMMAR_WORDING
from engine.seat_names import player_names
from pbp.composition import ComposedModerator
from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.record_parts import RosterPlayer
from pbp.mail.signup_words import find_signup
from pbp.ports import InboundMail
from pbp.mail.wrapping import WIDTH, wrap_body
from pbp.render.languages import translations
from pbp.render.refusals import worded
from pbp.render.renderer import Renderer
from pbp.render.verdicts import Refused
from pbp.settings import Settings
from pbp.signups.opening import open_for_signups
from pbp.storage.open_games import open_game
from tests.desk.test_refusals_in_languages import bad_orders
from tests.fixtures.clocks import Clock
from tests.render.test_no_english_left import english_left
from tests.signups.test_signup_details import Post

LANGUAGES = ("de", "es")


class Sender(Post):
    def reply(self, address: str) -> str:
        """The last reply to `address` as it is sent: its body wrapped at 72 columns."""
        rows = [r for r in open_game(self.moderator.folder, "ww3").file.outbox.all()]
        return wrap_body([r for r in rows if r["address"] == address][-1]["body"])


@pytest.fixture
def signups(tmp_path):
    """Open ww3 for sign-ups (in the game's language given, else English)."""
    opened: list[ComposedModerator] = []

    def open_in(language: str = "") -> Sender:
        settings = Settings(
            data=tmp_path / f"data{len(opened)}",
            from_address="pbp@games.example",
            replies_per_sender_per_day=50,
        )
        moderator = ComposedModerator(settings, clock=Clock())
        opened.append(moderator)
        options = {"language": language} if language else None
        open_for_signups(moderator, "ww3", "werewolf", "8..9", "2d", options)
        return Sender(moderator)

    yield open_in
    for moderator in opened:
        moderator.close()


def assert_worded_in(language: str, body: str, *expected: str) -> None:
    assert not english_left(body), english_left(body)
    assert all(len(line) <= WIDTH for line in body.split("\n")), body
    for text in expected:
        assert text in " ".join(body.split()), (text, body)


# (JOIN's words after `JOIN ww3`, a sentence of the German answer, of the Spanish one)
REFUSED_JOINS = [
    ("Ann TZ=Mars/Base", "Die Zeitzone 'Mars/Base' ist unbekannt", "zona horaria 'Mars/Base'"),
    ("Ann FORUM=!!bad", "Der Forumsname '!!bad' kann nicht", "nombre de foro '!!bad' no"),
    ("Vote", "'Vote' ist ein Befehlswort", "'Vote' es una palabra de orden"),
    ("b4", "'b4' liest sich wie ein Raum", "'b4' se lee como una sala"),
    ("host", "'host' ist in pbps Mails", "'host' es la palabra para el moderador"),
    ("x!y", "'x!y' ist kein gültiger Name", "'x!y' no es un nombre válido"),
    ("Pаco", "Schriften (kyrillisch und lateinisch)", "escrituras (cirílica y latina)"),
    ("Pаcoλ", "(kyrillisch und griechisch und lateinisch)", "(cirílica y griega y latina)"),
    ("bob", "der Name 'bob' kommt zweimal vor (als 'Bob')", "el nombre 'bob' aparece dos veces"),
    ("AIice", "die Namen 'Alice' und 'AIice' sehen sich", "los nombres 'Alice' y 'AIice'"),
    ("Dan FORUM=bob_k", "Der Forumsname 'bob_k' ist für ww3 schon", "'bob_k' ya está inscrito"),
]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("words, german, spanish", REFUSED_JOINS)
def test_a_refused_join_is_answered_in_the_senders_language(
    signups, language, words, german, spanish
):
    post = signups()
    assert post.join("bob@x.example", "JOIN ww3 Bob FORUM=bob_k") == "processed"
    assert post.join("alice@x.example", "JOIN ww3 Alice") == "processed"
    before = post.record()
    assert post.send("ann@x.example", f"JOIN ww3 {words} LANG={language}") == "rejected"
    assert_worded_in(language, post.reply("ann@x.example"), german if language == "de" else spanish)
    assert (post.record().entries, post.record().pending) == (before.entries, before.pending)


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_lang_a_refusal_is_in_the_games_language(signups, language):
    post = signups(language)
    assert post.send("ann@x.example", "JOIN ww3 Ann LANG=klingon TZ=Nowhere") == "rejected"
    body = post.reply("ann@x.example")
    if language == "de":
        assert_worded_in(language, body, "In der Sprache 'klingon' schreibt pbp nicht")
    else:
        assert_worded_in(language, body, "pbp no escribe en el idioma 'klingon'")
    assert post.send("zoe@x.example", "LEAVE ww3") == "rejected"
    assert_worded_in(language, post.reply("zoe@x.example"), "ww3")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_confirm_whose_name_was_taken_meanwhile_is_refused_in_the_senders_language(
    signups, language
):
    post = signups()
    assert post.send("ann@x.example", f"JOIN ww3 Cleo LANG={language}") == "processed"
    code = next(iter(post.record().pending))
    assert post.join("cleo@x.example", "JOIN ww3 cleo") == "processed"
    assert post.send("ann@x.example", f"CONFIRM ww3 {code}") == "rejected"
    said = "'Cleo' kommt zweimal vor" if language == "de" else "'Cleo' aparece dos veces"
    assert_worded_in(language, post.reply("ann@x.example"), said)


def test_an_english_senders_refusal_reads_as_before(signups):
    post = signups()
    assert post.send("ann@x.example", "JOIN ww3 Vote TZ=Mars/Base FORUM=!!bad") == "rejected"
    assert post.last_reply("ann@x.example").startswith(
        "Hello, The name 'Vote' cannot be used in ww3; choose another and mail JOIN ww3 <name>"
        " again: - 'Vote' is an order keyword; pick another name - The time zone 'Mars/Base' is"
        " unknown: write an IANA name such as Europe/Berlin, America/New_York or UTC, e.g. JOIN"
        " ww3 Vote TZ=Europe/Berlin. - The forum name '!!bad' cannot be used: write your forum"
        " account as 1-30 letters, digits, spaces, '_', '-' or '.', starting with a letter or"
        " digit, e.g. FORUM=alice_k. pbp, the moderator of game ww3 (werewolf)."
    )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "statement", ["Bob IS IN Z-9", "RED TEAM", "Bob IS DEAD )", "Bob WAS IN D-4 ON", "Bob"]
)
def test_a_validity_check_grammar_error_is_worded_in_the_readers_language(language, statement):
    with pytest.raises(OrderSyntaxError) as refused:
        parse_statement(statement, ["Bob"])
    body = wrap_body(Renderer(language=language).word(bad_orders([refused.value])))
    assert_worded_in(language, body, "gefunden" if language == "de" else "se encontró")
    grammar = worded(translations(language), GRAMMAR_WORDING)
    assert_worded_in(language, grammar, "PLAYER", "Bob WAS IN D-4 ON TURN 2 AND NOT")
    assert worded(translations("en"), GRAMMAR_WORDING) == GRAMMAR_HELP


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_thread_vote_the_rules_refuse_is_told_in_the_readers_language(language):
    refused = Refused(
        "thread_vote_not_counted",
        reason="bad_order",
        game_id="ww1",
        post="https://forum.example/p/7",
        written="Mon 7 Dec 2026, 18:00 UTC",
        said="VOTE Zed",
        phase_words="Day 1",
        standing=(),
        error="Zed is not a player of this game.",
        refused=IllegalOrderError.of("%(target)s is dead; nominate a living player.", target="Zed"),
    )
    body = wrap_body(Renderer(language=language).word(refused))
    assert "Zed" in body and not english_left(body), english_left(body)
    english = wrap_body(Renderer().word(refused))
    assert "Zed is dead; nominate a living player." in " ".join(english.split())


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_watch_or_join_of_a_running_game_is_in_the_threads_language(tmp_path, language):
    settings = Settings(
        data=tmp_path / "data", from_address="pbp@games.example", replies_per_sender_per_day=50
    )
    with ComposedModerator(settings, clock=Clock()) as moderator:
        roster = [RosterPlayer(name, f"{name.lower()}@players.example") for name in player_names(8)]
        options = {"spectators": "all", "language": language}
        create_game(moderator, "werewolf", roster, seed="1", options=options, game_id="ww1")
        desk = Desk(moderator)

        def refused(number: int, sender: str, body: str) -> str:
            mail = InboundMail(
                key=f"k{number}",
                sha256=f"s{number}",
                sender=sender,
                message_id=f"<m{number}@x.example>",
                subject="watch",
                commands=(find_signup(body, ""),),
            )
            assert desk.receive(mail) == "rejected"
            return wrap_body(moderator.folder.game("ww1").outbox.all()[-1]["body"])

        for number, body in enumerate(("WATCH ww1 LANG=klingon", "UNWATCH ww1", "JOIN ww1 Ann")):
            assert_worded_in(language, refused(number, "fan@x.example", body), "ww1")
        english = refused(9, "fan@x.example", "UNWATCH ww1 LANG=en")
        assert_worded_in(language, english, "ww1")  # UNWATCH takes no LANG=: the thread's


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_mails_unreadable_blocks_are_told_in_the_readers_language(language):
    from pbp.mail.blocks import find_blocks

    scan = find_blocks(["BEGIN ORDERS ww1 D1\nVOTE Bruno\n", "BEGIN ORDERS ww1\nEND ORDERS\n"])
    assert len(scan.problems) == 2
    for also in (False, True):
        verdict = Refused("problems", also=also, problems=scan.problems)
        body = wrap_body(Renderer(language=language).word(verdict))
        assert_worded_in(language, body, "END ORDERS", "BEGIN ORDERS ww1 D1")
    english = Renderer().word(Refused("problems", also=False, problems=scan.problems))
    assert english == "\n".join(str(problem) for problem in scan.problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_leave_once_sign_ups_are_closed_is_refused_in_the_players_language(signups, language):
    from pbp.signups.starting import start_signed_up

    post = signups()
    for name in player_names(8):
        assert post.join(f"{name.lower()}@x.example", f"JOIN ww3 {name} LANG={language}")
    start_signed_up(post.moderator, "ww3")
    address = f"{player_names(8)[0].lower()}@x.example"
    assert post.send(address, "LEAVE ww3") == "rejected"
    assert_worded_in(language, post.reply(address), "ww3")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_block_for_another_phase_names_the_phases_in_the_readers_language(language):
    from engine.errors import Wording

    open_phase = Wording("%(phase)s (%(id)s in the block)", {"phase": "Night 2", "id": "N2"})
    for verdict in (
        Refused(
            "closed_phase",
            phase_words=Wording("%(phase)s (%(id)s)", {"phase": "Night 1", "id": "N1"}),
            open_phase=open_phase,
            block_game="ww1",
            block_phase="N1",
        ),
        Refused("no_such_phase", open_phase=open_phase, block_game="ww1", block_phase="N9"),
    ):
        body = wrap_body(Renderer(language=language).word(verdict))
        assert_worded_in(language, body, "(N2 ")
        assert "Night" not in body
    english = Renderer().word(
        Refused("no_such_phase", open_phase=open_phase, block_game="ww1", block_phase="N9")
    )
    assert "the current phase is Night 2 (N2 in the block)" in english


@pytest.mark.parametrize("language", LANGUAGES)
def test_helps_validity_grammar_is_worded_in_the_readers_language(language):
    import engine

    ((order, grammar),) = engine.ruleset("infiltration").card.argument_grammars
    shown = Renderer(language=language).env.filters["refusal_line"](grammar)
    assert_worded_in(language, shown, "PLAYER IS IN ROOM")
    assert Renderer().env.filters["refusal_line"](grammar) == GRAMMAR_HELP
