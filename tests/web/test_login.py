"""Logging in to the desk (docs/design.md: The host's desk — as safe as the mailbox)."""

from __future__ import annotations

from pbp.web.app import make_app
from pbp.web.credentials import new_login_link, set_password

from tests.web.conftest import assert_accessible, csrf_of


def test_every_page_asks_for_a_login_first(site):
    client = make_app(site.settings()).test_client()
    answer = client.get("/")
    assert answer.status_code == 302 and answer.headers["Location"].startswith("/login")


def test_a_login_link_works_once(site):
    client = make_app(site.settings()).test_client()
    token = new_login_link(site.data)
    assert client.get(f"/login/{token}").status_code == 302
    assert b"Every game" in client.get("/").data
    other = make_app(site.settings()).test_client()
    assert other.get(f"/login/{token}").status_code == 403


def test_the_password_logs_in_and_a_wrong_one_does_not(site):
    set_password(site.data, "correct horse battery")
    client = make_app(site.settings()).test_client()
    form = client.get("/login")
    refused = client.post(
        "/login", data={"password": "wrong password!", "csrf_token": csrf_of(form.data)}
    )
    assert refused.status_code == 403 and b"not the desk" in refused.data
    accepted = client.post(
        "/login",
        data={"password": "correct horse battery", "next": "/", "csrf_token": csrf_of(form.data)},
    )
    assert accepted.status_code == 302 and client.get("/").status_code == 200


def test_the_session_cookie_is_http_only_and_strict(site):
    client = make_app(site.settings()).test_client()
    answer = client.get(f"/login/{new_login_link(site.data)}")
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" not in cookie
    tls = make_app(site.settings(), over_tls=True).test_client()
    assert "Secure" in tls.get(f"/login/{new_login_link(site.data)}").headers["Set-Cookie"]


def test_pages_forbid_inline_scripts_and_framing(desk):
    headers = desk.get("/").headers
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert "unsafe-inline" not in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY"


def test_the_games_page_lists_the_game(desk):
    page = desk.get("/").data.decode()
    assert "<h1>Games</h1>" in page and ">w1<" in page and "werewolf" in page


def test_the_browser_logs_in_and_reads_the_games(browser_page, screenshot):
    assert browser_page.locator("h1").inner_text() == "Games"
    assert browser_page.get_by_role("row", name="w1").count() == 1
    assert_accessible(browser_page)
    screenshot(browser_page, "games")
