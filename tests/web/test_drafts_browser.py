"""The drafts pages in a real browser against the local Discourse (docs/design.md: The
drafts page): a host edits a draft until the leak check passes, approves it and sees it
published; the same with the keyboard alone. Each page is checked for its headings and
labels, and photographed for the documentation."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from pbp.demo.discourse_server import LocalDiscourse

from tests.web.conftest import assert_accessible, make_site

pytestmark = pytest.mark.integration
VIEWPORT = {"width": 1200, "height": 800}
LEAK = "Bruno is the Seer, I hear."  # Bruno's role is hidden while he lives (seed 7)
FIXED = "A quiet night; keep your eyes open."


@pytest.fixture
def discourse():
    server = LocalDiscourse().start()
    yield server
    server.stop()


@pytest.fixture
def site(tmp_path, discourse):
    """The desk's site (w1, its first night resolved) with the local Discourse as its forum."""
    made = make_site(
        tmp_path / "site",
        {
            "forum": {"publisher": "discourse"},
            "discourse": {
                "url": discourse.url,
                "api_username": discourse.username,
                "api_key": discourse.api_key,
                "timeout": 5,
            },
        },
    )
    assert made.pbp("advance", "w1") == 0
    return made


def published(discourse) -> str:
    return "\n".join(post.raw for post in discourse.posts_by(discourse.username))


def test_a_host_fixes_a_leaking_draft_approves_it_and_sees_it_on_discourse(
    browser_page, live_desk, discourse, screenshot
):
    page = browser_page
    page.set_viewport_size(VIEWPORT)
    page.goto(f"{live_desk.base}/drafts")
    expect(page.locator("h1")).to_have_text("Drafts")
    assert_accessible(page)
    screenshot(page, "drafts-waiting")

    page.get_by_role("link", name="w1", exact=True).click()
    expect(page.locator("h1")).to_have_text("Drafts of w1")
    assert page.locator(
        ".forum-preview .forum-h2"
    ).first.inner_text()  # a heading, as Discourse shows it
    assert_accessible(page)
    screenshot(page, "drafts-of-a-game", full_page=False)

    page.get_by_role("link", name="Edit N0").click()
    expect(page.locator("h1")).to_have_text("Draft N0 of w1")
    assert_accessible(page)
    screenshot(page, "draft", full_page=False)
    editor = page.get_by_label("Text of N0 (discourse)")
    original = editor.input_value()

    editor.fill(f"{original}\n{LEAK}\n")
    submit(page, "Save the edit")
    expect(page.get_by_role("alert").first).to_contain_text("was not saved")
    assert page.locator("pre.draft-source mark").all_inner_texts() == ["Bruno", "Seer"]
    assert LEAK in page.get_by_label("Text of N0 (discourse)").input_value()  # the edit is not lost
    assert_accessible(page)
    screenshot(page, "draft-leak-refused", full_page=False)

    page.get_by_label("Text of N0 (discourse)").fill(f"{original}\n{FIXED}\n")
    submit(page, "Save the edit")
    expect(page.get_by_role("status").first).to_contain_text("Kept your edit of N0.")
    assert page.get_by_text("The leak check passes.").count() == 1
    submit(page, "Approve N0")
    expect(page.get_by_role("status").first).to_contain_text("Approved N0.")

    page.get_by_role("link", name="All drafts of w1").click()
    expect(page.locator("h1")).to_have_text("Drafts of w1")
    submit(page, "Publish now")
    expect(page.locator("main")).to_contain_text("Published 1 post(s).")
    assert FIXED in published(discourse) and LEAK not in published(discourse)
    assert page.get_by_role("row", name="N0").get_by_role("link").count() == 1  # where it went
    screenshot(page, "drafts-published", full_page=False)


def submit(page, button: str) -> None:
    """Press a form's button and wait for the page it leads to."""
    with page.expect_navigation():
        page.get_by_role("button", name=button).click()


def press_tab_until(page, name: str, most: int = 80) -> None:
    """Tab (only) until the focused control reads `name`."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if (
            page.evaluate("document.activeElement && document.activeElement.textContent.trim()")
            == name
        ):
            return
    pytest.fail(f"Tab never reached {name!r}")


def test_the_approval_flow_works_with_the_keyboard_alone(browser_page, live_desk, discourse):
    page = browser_page
    page.goto(f"{live_desk.base}/")
    press_tab_until(page, "Drafts")
    with page.expect_navigation(url=f"{live_desk.base}/drafts"):
        page.keyboard.press("Enter")
    press_tab_until(page, "w1")
    with page.expect_navigation(url=f"{live_desk.base}/games/w1/drafts"):
        page.keyboard.press("Enter")
    press_tab_until(page, "Approve N0")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.get_by_role("status").first).to_contain_text("Approved N0.")
    press_tab_until(page, "Publish now")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("main")).to_contain_text("Published 1 post(s).")
    assert "Nobody died in the night." in published(discourse)
