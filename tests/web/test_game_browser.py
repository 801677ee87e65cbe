"""In Chromium: a host reads a game (its roster, count and, for Infiltration, its map),
answers a player's message from the reply box, and sees the page follow the game as it
changes from outside: reloaded, or, with an answer half written, a notice instead
(docs/design.md: The host's desk in the browser)."""

from __future__ import annotations

import pytest

from tests.web.conftest import assert_accessible
from tests.web.talk import add_infiltration_game, outbox_to, player_writes

pytestmark = pytest.mark.timeout(180)
# Longer than two of static/desk.js's polls (three seconds each).
CHANGE_SEEN_MS = 15_000


def test_a_host_reads_a_game_and_answers_a_player(site, live_desk, browser_page, screenshot):
    from playwright.sync_api import expect

    assert site.pbp("advance", "w1") == 0
    assert site.pbp("submit", "w1", "Alice", "NOMINATE Bruno", "--no-send") == 0
    player_writes(site, "w1", "Chloe", "Will the vote close at noon?")
    page = browser_page
    page.goto(f"{live_desk.base}/")
    assert_accessible(page)
    screenshot(page, "games-in-play")
    page.get_by_role("link", name="w1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Game w1")
    expect(page.get_by_role("row", name="Dmitri Werewolf (wolves)")).to_contain_text("alive")
    expect(page.get_by_role("row", name="Bruno 1")).to_contain_text("Alice (entered by the host)")
    assert_accessible(page)
    screenshot(page, "game")
    page.get_by_label("Your answer to Chloe").fill("Yes, at noon Berlin time.")
    page.get_by_role("button", name="Send the answer").click()
    expect(page.get_by_role("status").first).to_have_text(
        "Your answer to Chloe is queued; pbp run sends it."
    )
    (answer,) = outbox_to(site, "w1", "Chloe", "message")
    assert "Yes, at noon Berlin time." in answer["body"] and answer["status"] == "queued"


def test_the_infiltration_map_shows_as_a_picture(site, live_desk, browser_page, screenshot):
    from playwright.sync_api import expect

    add_infiltration_game(site)
    page = browser_page
    page.goto(f"{live_desk.base}/games/i1")
    picture = page.get_by_role("img", name="The facility map of game i1")
    expect(picture).to_be_visible()
    assert picture.evaluate("img => img.complete && img.naturalWidth > 0")
    assert_accessible(page)
    screenshot(page, "game-infiltration")
    page.goto(f"{live_desk.base}/games/nope")
    expect(page.get_by_role("heading", level=1)).to_have_text("Not here")
    assert_accessible(page)
    screenshot(page, "game-unknown")


def test_the_page_reloads_when_the_game_changes_but_keeps_an_edit(site, live_desk, browser_page):
    from playwright.sync_api import expect

    player_writes(site, "w1", "Hiro", "Am I alive?")
    page = browser_page
    page.goto(f"{live_desk.base}/games/w1")
    deadline = page.get_by_text("Phase: Night 0")
    before = deadline.inner_text()
    site.pbp("extend", "w1", "3h", "--no-send")
    expect(deadline).not_to_have_text(before, timeout=CHANGE_SEEN_MS)  # reloaded by itself
    page.get_by_label("Your answer to Hiro").fill("You are, for now.")
    site.pbp("extend", "w1", "1h", "--no-send")
    expect(page.locator("#live-notice")).to_have_text(
        "This game changed; reload when you are done.", timeout=CHANGE_SEEN_MS
    )
    expect(page.get_by_label("Your answer to Hiro")).to_have_value("You are, for now.")


def test_the_games_page_reloads_when_a_game_changes(site, live_desk, browser_page):
    from playwright.sync_api import expect

    page = browser_page
    page.goto(f"{live_desk.base}/")
    row = page.get_by_role("row", name="w1")
    before = row.inner_text()
    site.pbp("extend", "w1", "5h", "--no-send")
    expect(row).not_to_have_text(before, timeout=CHANGE_SEEN_MS)
