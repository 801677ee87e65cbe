"""The host actions in a real browser (Playwright driving Chromium against `pbp web`): a
host extends a deadline and sees the players' notices queued, enters an NPC's orders and
sees the receipt, starts an open game and substitutes a player from its list. Each page
is checked for its headings and labels, and saved as a screenshot."""

from __future__ import annotations

import re

from tests.web.conftest import assert_accessible
from tests.web.test_actions import infiltration_with_an_npc, open_with_signups


def notes(page) -> str:
    return "\n".join(page.locator("p.note").all_inner_texts())


def test_the_host_extends_a_deadline_and_sees_the_notices_queued(
    browser_page, live_desk, screenshot
):
    page = browser_page
    page.goto(f"{live_desk.base}/games/w1/actions")
    assert page.locator("h1").inner_text() == "Host actions: game w1"
    assert_accessible(page)
    screenshot(page, "actions")
    page.get_by_label("Extend by a duration, or to a time with its zone").fill("1d")
    page.get_by_label("Reason (told to the players)").fill("a holiday weekend")
    page.get_by_role("button", name="Extend the deadline").click()
    said = notes(page)
    assert "Game w1: the deadline is now" in said
    assert re.search(r"Notices queued: [1-9]\d*; pbp run sends them\.", said), said
    screenshot(page, "actions-extended")


def test_the_host_enters_an_npcs_orders_and_sees_the_receipt(
    browser_page, live_desk, site, tmp_path, screenshot
):
    infiltration_with_an_npc(site, tmp_path)
    page = browser_page
    page.goto(f"{live_desk.base}/games/inf1/actions")
    page.get_by_role("link", name="Raiden (NPC)").click()
    assert page.locator("h1").inner_text() == "Orders for Raiden in game inf1"
    assert "BEGIN ORDERS inf1 T1-movement" in page.get_by_label(re.compile("^Orders")).input_value()
    assert_accessible(page)
    screenshot(page, "orders-form")
    page.get_by_label(re.compile("^Orders")).fill("MOVE Z-9")
    page.get_by_role("button", name="Enter the orders").click()
    assert "The orders for Raiden were not accepted" in page.locator("section.refused").inner_text()
    assert page.get_by_label(re.compile("^Orders")).input_value() == "MOVE Z-9"
    assert_accessible(page)
    screenshot(page, "orders-refused")
    page.get_by_label(re.compile("^Orders")).fill("MOVE A-1")
    page.get_by_role("button", name="Enter the orders").click()
    assert "Accepted for Raiden:\nMOVE A-1" in notes(page)
    assert "Your accepted orders" in page.locator("pre.mail").inner_text()


def test_the_host_starts_an_open_game_and_substitutes_from_the_list(
    browser_page, live_desk, site, screenshot
):
    names = open_with_signups(site, "ww3", 10)
    page = browser_page
    page.goto(f"{live_desk.base}/open/ww3/start")
    assert page.locator("h1").inner_text() == "Start game ww3"
    assert_accessible(page)
    screenshot(page, "start")
    page.get_by_role("button", name="Start the game").click()
    assert "Game ww3 (werewolf, 8 players) started" in notes(page)
    assert page.locator("ol.substitutes li").first.inner_text().startswith(names[8])
    page.locator("#list-old").select_option(names[0])
    page.get_by_role("button", name="Substitute from the list").click()
    assert f"Game ww3: {names[8]} now plays {names[0]}" in notes(page)
    assert page.locator("ol.substitutes li").first.inner_text().startswith(names[9])
    assert_accessible(page)
    screenshot(page, "actions-substituted")
