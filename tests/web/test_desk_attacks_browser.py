"""Hostile names and posts in a real browser (docs/design.md: The host's desk — as safe as
the mailbox): every page of the desk, walked over its `url_map`, is opened in Chromium
over a game full of script tags, `javascript:` links and bidi overrides, and no script of
theirs runs — no dialog ever opens, not even after a click on every link a post made."""

from __future__ import annotations

import pytest

from pbp.web.app import OPEN_ENDPOINTS, make_app

from tests.web.hostile import make_hostile_site
from tests.web.test_desk_attacks import rules, url

pytestmark = pytest.mark.integration


@pytest.fixture
def site(tmp_path):
    """The desk's site, its game full of hostile text (tests.web.hostile)."""
    return make_hostile_site(tmp_path / "hostile")


def test_no_hostile_script_runs_on_any_page(site, browser_page, live_desk):
    dialogs: list[str] = []
    page = browser_page
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    app = make_app(site.settings())
    opened = []
    for _, endpoint, arguments in rules(app, {"GET"}):
        if endpoint in OPEN_ENDPOINTS:
            continue
        answer = page.goto(live_desk.base + url(app, endpoint, arguments, "GET"))
        assert answer is not None
        if answer.status == 200:
            opened.append(endpoint)
    assert {"drafts.waiting", "drafts.game_page", "drafts.draft_page"} <= set(opened)
    # the links a hostile post made go nowhere that runs script
    page.goto(f"{live_desk.base}/games/w1/drafts/N0")
    for link in page.locator(".forum-preview a").all():
        href = link.get_attribute("href") or ""
        assert not href.lower().startswith(("javascript", "data", "vbscript")), href
    page.get_by_label("Text of N0 (markdown)").focus()  # the editor holds the text as text
    assert dialogs == []
