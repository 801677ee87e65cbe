"""Player-written words are left out of the leak check by position, not by text
(docs/design.md: Public posts — anonymous messages are public by the rules and are not
checked; a host's edit that trips the check needs `--force`)."""

from __future__ import annotations

from engine.core import SecretFields
from pbp.cli import main
from pbp.storage.drafts import APPROVED, DraftBook
from pbp.forum.publishing.post_renderer import PostFacts, PostRenderer
from pbp.forum.publishing.dialects import dialect
from pbp.forum.publishing.leaks import LeakCheck
from pbp.forum.publishing.leaks import leak_check
from pbp.forum.publishing.spans import follow, mark, unmark

from tests.forum.conftest import stored
from tests.forum.test_review import editor

CHECK = LeakCheck(
    SecretFields(personal=frozenset({"role"})),
    {"Bob": {"me": {"name": "Bob", "role": "seer"}}},
    {"players": [{"name": "Bob"}]},
    ["Bob"],
)


def test_unmark_finds_each_marked_span_by_offset():
    text, spans = unmark(f"An anonymous message:\n> {mark('e')}\nBob died, {mark('said: e')}.\n")
    assert text == "An anonymous message:\n> e\nBob died, said: e.\n"
    assert [text[start:end] for start, end in spans] == ["e", "said: e"]


def test_a_message_e_hides_nothing_but_itself():
    text = "> e\nBob is the seer.\n"
    assert [leak.fact.value for leak in CHECK.check(text, [(2, 3)])] == ["seer"]


def test_a_message_naming_a_role_is_left_out_where_it_stands_and_only_there():
    message = "Bob is the seer"
    text = f"> {message}\nBob is the seer\n"
    assert (
        CHECK.check(text, [(2, 2 + len(message))]) != []
    )  # the same words on another line are checked
    assert CHECK.check(f"> {message}\n", [(2, 2 + len(message))]) == []


def test_a_span_follows_an_edit_elsewhere_and_is_lost_when_its_line_is_edited():
    generated = "Title line\n> Bob is the seer\nThe end.\n"
    spans = [(13, 28)]
    moved = "New first line\n" + generated + "Good luck!\n"
    (span,) = follow(spans, generated, moved)
    assert moved[span[0] : span[1]] == "Bob is the seer"
    assert (
        follow(
            spans, generated, generated.replace("> Bob is the seer", "> Bob is the seer, really")
        )
        == ()
    )


def render_with_message(game, text: str):
    facts = PostFacts(
        game="inf1",
        ruleset="infiltration",
        phase="T0-class",
        public_view=game.rules.view(game.state, None),
        events=[{"kind": "anonymous_message", "data": {"text": text}}],
    )
    return PostRenderer().render(facts, dialect("markdown"))


def store_draft_with_message(host_game, text: str) -> str:
    """Replace the game's first draft with one holding the anonymous message `text`; return
    the name of a Red (a hidden team)."""
    moderator, game = stored(host_game)
    with moderator, game.file.transaction():
        red = next(
            n for n in game.record.tokens if game.rules.view(game.state, n)["me"]["team"] == "red"
        )
        draft = render_with_message(game, text.format(red=red))
        leaks = [str(leak) for leak in leak_check(game).check(draft.text, draft.player_spans)]
        DraftBook(game.file).save_generated(
            "T0-class", draft.title, draft.text, draft.player_spans, "markdown", leaks
        )
    return red


def test_a_message_e_does_not_let_a_host_edit_naming_a_hidden_team_pass(
    host_game, monkeypatch, capsys
):
    red = store_draft_with_message(host_game, "e")
    editor(
        monkeypatch, host_game, f"open(path, 'w').write(text + '\\n{red} is red, trust me.\\n')\n"
    )
    assert main(["draft", "edit", "inf1"]) == 0
    assert f"LEAK: the draft names {red}'s team red" in capsys.readouterr().out
    assert main(["draft", "approve", "inf1"]) == 2
    assert "fails the leak check" in capsys.readouterr().err


def test_a_genuine_message_naming_a_team_passes_even_after_an_edit_elsewhere(
    host_game, monkeypatch, capsys
):
    store_draft_with_message(host_game, "I know {red} is red!")
    editor(monkeypatch, host_game, "open(path, 'w').write(text + '\\nGood luck, everyone!\\n')\n")
    assert main(["draft", "edit", "inf1"]) == 0
    assert main(["draft", "approve", "inf1"]) == 0
    moderator, game = stored(host_game)
    with moderator:
        row = DraftBook(game.file).get("T0-class")
        assert row.status == APPROVED and not row.forced and row.leaks == ()


def test_a_host_edit_inside_the_messages_line_makes_it_checked_again(
    host_game, monkeypatch, capsys
):
    red = store_draft_with_message(host_game, "I know {red} is red!")
    editor(
        monkeypatch,
        host_game,
        "open(path, 'w').write(text.replace(' is red', ' is red, it is true,'))\n",
    )
    assert main(["draft", "edit", "inf1"]) == 0
    assert f"LEAK: the draft names {red}'s team red" in capsys.readouterr().out
    assert main(["draft", "approve", "inf1"]) == 2
