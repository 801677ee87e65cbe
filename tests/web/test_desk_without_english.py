"""Every page of the desk, with `[pbp] host_language` German or Spanish, holds no English
of pbp's own pages (docs/design.md: Languages — no English left): the stop-list of the
translated demos (tests/render/test_no_english_left.py) is read over each page's words.

Left out are what the page shows as it was written, each in its own element: text players
wrote and names (`<bdi>`), the thread's drafts (the game's language, not the host's), the
options' names (what `pbp options` takes) and the sign-up lines `pbp open-game` prints.
The roles' summaries, the options' help, the problems `pbp status` finds and a refusal's
sentence are worded in the host's language too (pbp.web.host_words), and read here."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from engine import ruleset
from pbp.host.status_report import OVERDUE_AFTER
from pbp.render.keyword_names import keyword_in
from pbp.schedule import now
from pbp.web.app import make_app
from pbp.web.credentials import new_login_link
from tests.render.test_no_english_left import english_left
from tests.web.conftest import make_site
from tests.web.talk import player_writes
from tests.web.test_actions import infiltration_with_an_npc, open_with_signups

PAGES = (
    "/",
    "/games/w1",
    "/games/w1/actions",
    "/games/w1/drafts",
    "/games/w1/drafts/N0",
    "/drafts",
    "/games/inf1",
    "/games/inf1/map.svg",
    "/games/inf1/actions",
    "/games/inf1/orders/Raiden",
    "/open/ww3/start",
    "/games/nope",
)
NOT_THE_DESKS = re.compile(
    r"<bdi>.*?</bdi>"
    r'|<div class="forum-preview">.*?</div>'
    r'|<textarea id="draft-text".*?</textarea>'
    r'|<label for="option-.*?</label>'  # an option's name is what `pbp options` takes
    r"|\bdead(?= \()"  # an option's value in its help: what the host types
    r'|<pre class="mail">(?:(?!</pre>).)*?&lt;\S+@.*?</pre>'  # the sign-up lines, addresses
    r"|<title>.*?</title>(?=</g>)",  # the map's tooltips: who is in a room
    re.DOTALL,
)


@pytest.fixture(scope="module", params=["de", "es"])
def desk_pages(request, tmp_path_factory) -> dict[str, str]:
    """Each page of a desk whose host reads `request.param`, with a Werewolf game at its
    first day, an Infiltration game with an NPC, and a game open for sign-ups."""
    root: Path = tmp_path_factory.mktemp(f"desk-{request.param}") / "site"
    site = make_site(root, host_language=request.param)
    assert site.pbp("advance", "w1") == 0
    player_writes(site, "w1", "Chloe", "Is the vote at noon?")
    infiltration_with_an_npc(site, root)
    open_with_signups(site, "ww3", 10)
    app = make_app(site.settings())
    app.config["TESTING"] = True
    client = app.test_client()
    pages = {"/login": client.get("/login").get_data(as_text=True)}
    assert client.get(f"/login/{new_login_link(site.data)}").status_code == 302
    for path in PAGES:
        answer = client.get(path)
        assert answer.status_code == (404 if path == "/games/nope" else 200), path
        pages[path] = answer.get_data(as_text=True)
    return pages


def desk_words(page: str) -> str:
    """The page's words that the desk's templates word, without the markup."""
    return re.sub(r"<[^>]+>", " ", NOT_THE_DESKS.sub(" ", page))


def test_no_desk_page_holds_english(desk_pages):
    left = {
        path: english_left(desk_words(page))
        for path, page in desk_pages.items()
        if english_left(desk_words(page))
    }
    assert not left, "English on the desk:\n" + "\n".join(
        f"{path}: {found}" for path, words in left.items() for found in words[:10]
    )


def test_the_stop_list_sees_the_english_pages():
    """The same pages in English are caught (the test reads what it should)."""
    assert english_left(desk_words("<p>Orders this phase</p><p>The moderator</p>"))
    assert not english_left(desk_words("<p>Befehle <bdi>the player wrote this</bdi></p>"))


@pytest.mark.parametrize("language", ["de", "es"])
def test_an_overdue_games_row_says_why_in_the_hosts_language(language, tmp_path, monkeypatch):
    """A game whose deadline passed long ago: its row on the games page says why its
    resolution waits in the host's language, as the page's list of problems does."""
    site = make_site(tmp_path / "site", host_language=language)
    assert site.pbp("advance", "w1") == 0
    later = now() + timedelta(days=30) + OVERDUE_AFTER
    monkeypatch.setattr("pbp.web.games.now", lambda: later)
    app = make_app(site.settings())
    app.config["TESTING"] = True
    client = app.test_client()
    assert client.get(f"/login/{new_login_link(site.data)}").status_code == 302
    page = client.get("/").get_data(as_text=True)
    rows = page.split("<tbody>")[1]
    (why,) = re.findall(r'<br><span class="problem">(.*?)</span>', rows)
    assert why != "its deadline passed and it is not resolved"
    assert not english_left(why) and not english_left(desk_words(page))


@pytest.mark.parametrize("language", ["de", "es"])
def test_a_summarys_order_keywords_are_the_hosts_languages(language, tmp_path):
    """The Witch's summary on the game's page names her potions by the keywords the host's
    language writes (`VERGIFTEN: übrig`), as her form does, never `POISON`."""
    site = make_site(tmp_path / "site", host_language=language)
    assert site.pbp("advance", "w1") == 0
    app = make_app(site.settings())
    app.config["TESTING"] = True
    client = app.test_client()
    assert client.get(f"/login/{new_login_link(site.data)}").status_code == 302
    page = client.get("/games/w1").get_data(as_text=True)
    card = ruleset("werewolf").card
    for keyword in ("POISON", "SAVE"):
        assert f"{keyword}:" not in page
        assert f"{keyword_in(keyword, card, language)}:" in page
