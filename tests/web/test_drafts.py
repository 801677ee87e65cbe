"""The drafts pages (docs/design.md: The drafts page): each draft as its forum will show it
beside its source, the leak check's findings marked, an edit refused while the check
objects, approve, approve all, publish now — through the functions the commands use."""

from __future__ import annotations

import re

import pytest

from pbp.forum.publishing.publish import held_behind
from pbp.settings import load_settings
from pbp.composition import ComposedModerator
from pbp.game.stored import load
from pbp.storage.drafts import APPROVED, DRAFT, PUBLISHED, DraftBook
from pbp.web.forum_preview import forum_html

from tests.web.conftest import csrf_of
from tests.web.inertness import active_parts

LEAK = "Bruno is the Seer, I hear.\n"  # Bruno's role is hidden while he lives (seed 7)


def draft_command(site, *arguments: str) -> int:
    """`pbp draft <arguments>` on the site (its options follow the action)."""
    from pbp.cli import main

    return main(["draft", *arguments, "--settings", str(site.settings_file)])


def drafts_of(site) -> dict[str, dict]:
    with ComposedModerator(load_settings(str(site.settings_file))) as moderator:
        return {row.phase: row for row in DraftBook(load(moderator, "w1").file).all()}


@pytest.fixture
def resolved(site):
    """The site with its first night resolved: drafts `opening` and `N0` wait."""
    assert site.pbp("advance", "w1") == 0
    return site


def token(desk, path="/games/w1/drafts") -> str:
    return csrf_of(desk.get(path).data)


def test_the_page_shows_each_draft_as_its_forum_will_beside_its_source(resolved, desk):
    page = desk.get("/games/w1/drafts").data.decode()
    assert "<h1>Drafts of w1</h1>" in page
    # the Markdown heading `## Day 1 — a quiet night` is shown as Reddit shows a heading,
    # and the source keeps the text as the host wrote it
    assert '<p class="forum-heading forum-h2">Day 1 — a quiet night</p>' in page
    assert "<strong>Living (8):</strong>" in page
    assert "## Day 1 — a quiet night" in page
    assert "The leak check passes." in page


def test_an_edit_the_leak_check_objects_to_is_refused_and_its_words_are_marked(resolved, desk):
    before = drafts_of(resolved)["N0"]
    answer = desk.post("/games/w1/drafts/N0/edit", data={"csrf_token": token(desk), "text": LEAK})
    page = answer.data.decode()
    assert answer.status_code == 422 and "was not saved" in page
    assert "Bruno&#39;s role seer" in page
    assert re.findall(r"<mark><bdi>([^<]*)</bdi></mark>", page) == ["Bruno", "Seer"]
    assert "Bruno is the Seer, I hear." in page  # the edit is handed back, not lost
    assert drafts_of(resolved)["N0"] == before  # nothing changed


def test_a_clean_edit_is_kept_as_pbp_draft_edit_keeps_it(resolved, desk):
    answer = desk.post(
        "/games/w1/drafts/N0/edit", data={"csrf_token": token(desk), "text": "A calm night.\r\n"}
    )
    assert answer.status_code == 302
    row = drafts_of(resolved)["N0"]
    assert row.text == "A calm night.\n" and row.edited and row.status == DRAFT and row.leaks == ()
    assert "Kept your edit of N0." in desk.get(answer.headers["Location"]).data.decode()


def test_an_empty_edit_changes_nothing(resolved, desk):
    before = drafts_of(resolved)["N0"]
    desk.post("/games/w1/drafts/N0/edit", data={"csrf_token": token(desk), "text": "  \n"})
    assert drafts_of(resolved)["N0"] == before


def test_approve_refuses_a_leaking_draft_unless_forced(resolved, desk):
    assert draft_command(resolved, "approve", "w1", "opening") == 0
    from pbp.forum.publishing import review

    with ComposedModerator(load_settings(str(resolved.settings_file))) as moderator:
        game = load(moderator, "w1")
        with game.file.transaction():
            review.edit(game, "N0", LEAK)  # as `pbp draft edit` keeps it, leaks and all
    refused = desk.post(
        "/games/w1/drafts/N0/approve", data={"csrf_token": token(desk)}, follow_redirects=True
    )
    assert "fails the leak check" in refused.data.decode()
    assert drafts_of(resolved)["N0"].status == DRAFT
    desk.post("/games/w1/drafts/N0/approve", data={"csrf_token": token(desk), "force": "yes"})
    row = drafts_of(resolved)["N0"]
    assert row.status == APPROVED and row.forced


def test_approve_all_then_publish_now_puts_the_posts_out_in_order(resolved, desk):
    page = desk.post(
        "/games/w1/drafts/approve-all", data={"csrf_token": token(desk)}, follow_redirects=True
    ).data.decode()
    assert "Approved 2: opening, N0." in page
    page = desk.post(
        "/games/w1/drafts/publish", data={"csrf_token": token(desk)}, follow_redirects=True
    ).data.decode()
    assert "Published 2 post(s)." in page
    rows = drafts_of(resolved)
    assert rows["opening"].status == rows["N0"].status == PUBLISHED
    posts = sorted((resolved.data / "posts" / "w1").iterdir())
    assert [path.name for path in posts] == ["001-opening.md", "002-N0.md"]


def test_a_draft_held_behind_an_earlier_one_says_which(resolved, desk):
    assert resolved.pbp("advance", "w1") == 0  # D1-nominate resolves: its draft follows N0's
    later = [phase for phase in drafts_of(resolved) if phase not in ("opening", "N0")][0]
    desk.post(f"/games/w1/drafts/{later}/approve", data={"csrf_token": token(desk)})
    with ComposedModerator(load_settings(str(resolved.settings_file))) as moderator:
        assert held_behind(DraftBook(load(moderator, "w1").file)) == {later: "N0"}
    page = desk.get("/games/w1/drafts").data.decode()
    assert "Held behind N0, which is not approved yet" in page
    page = desk.post(
        "/games/w1/drafts/publish", data={"csrf_token": token(desk)}, follow_redirects=True
    ).data.decode()
    assert "Published 0 post(s)." in page and "N0 is not approved yet" in page


def test_every_games_drafts_are_counted(resolved, desk):
    page = desk.get("/drafts").data.decode()
    assert re.search(r'<a href="/games/w1/drafts">w1</a></th>\s*<td>2</td><td>0</td>', page)


def test_an_unknown_game_or_draft_is_not_found(resolved, desk):
    assert desk.get("/games/nope/drafts").status_code == 404
    assert desk.get("/games/w1/drafts/D9").status_code == 404
    assert (
        desk.post("/games/w1/drafts/D9/approve", data={"csrf_token": token(desk)}).status_code
        == 404
    )


def test_the_bbcode_dialect_is_previewed_as_a_classic_forum_shows_it(resolved, desk):
    assert draft_command(resolved, "settings", "w1", "--dialect", "bbcode") == 0
    page = desk.get("/games/w1/drafts/N0").data.decode()
    assert '<span class="bb-large"><strong>Day 1 — a quiet night</strong></span>' in page
    assert "[size=150][b]Day 1" in page  # the source, as written


@pytest.mark.parametrize("dialect", ["markdown", "discourse", "bbcode"])
def test_raw_html_and_script_links_in_a_draft_come_out_as_text(dialect):
    hostile = (
        "<script>alert(1)</script> <img src=x onerror=alert(2)> [x](javascript:alert(3)) "
        '[url=javascript:alert(4)]y[/url] [url=http://a.example/" onmouseover="alert(5)]z[/url]'
    )
    html = str(forum_html(hostile, dialect))
    assert active_parts(html) == []
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_discourse_keeps_a_single_line_break_and_reddit_joins_the_lines():
    assert str(forum_html("one\ntwo", "discourse")) == "<p>one<br />\ntwo</p>\n"
    assert str(forum_html("one\ntwo", "markdown")) == "<p>one\ntwo</p>\n"
    assert "<table>" in str(forum_html("|a|b|\n|-|-|\n|1|2|", "markdown"))
    assert "<s>gone</s>" in str(forum_html("~~gone~~", "discourse"))


def test_the_editor_writes_invisible_characters_out_and_saving_puts_them_back(resolved, desk):
    draft_command(resolved, "approve", "w1", "opening")
    desk.post(
        "/games/w1/drafts/N0/edit",
        data={"csrf_token": token(desk), "text": "Calm \u202e night \u200b ⟨U+0041⟩\n"},
    )
    page = desk.get("/games/w1/drafts/N0").data.decode()
    editor = page.split('<textarea id="draft-text" name="text"')[1].split("</textarea>")[0]
    assert "Calm ⟨U+202E⟩ night ⟨U+200B⟩ ⟨U+0041⟩" in editor and "\u202e" not in page
    text = re.sub(r"^[^>]*>", "", editor).replace("&amp;", "&")
    desk.post("/games/w1/drafts/N0/edit", data={"csrf_token": token(desk), "text": text})
    # the same text again: only invisible characters came back, a visible one stays written out
    assert drafts_of(resolved)["N0"].text == "Calm \u202e night \u200b ⟨U+0041⟩\n"
