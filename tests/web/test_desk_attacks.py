"""Attacks on the whole desk (docs/design.md: The host's desk — as safe as the mailbox):
every page and action refused without a session, every POST refused without its CSRF
token, hostile names and posts rendered inert, a session of one data folder useless on
another, path traversal in every URL parameter, the login's rate limit, and no open
redirect.

The walks go over the application's own `url_map`, so a page added later (the game page,
the host's actions) is attacked too without a line here changing; `SAMPLE_VALUES` names
a real value for the URL parameters pages use, and any other parameter gets a harmless
word (the page then answers 404, which the walks accept where a real value is not needed)."""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path
from typing import Iterator

import pytest
from flask import Flask

from pbp.web.app import OPEN_ENDPOINTS, limiter, make_app
from pbp.web.credentials import new_login_link, set_password

from tests.web.conftest import csrf_of, make_site
from tests.web.hostile import RLO, ZWSP, make_hostile_site
from tests.web.inertness import active_parts

SAMPLE_VALUES = {
    "game": "w1",
    "phase": "N0",
    "filename": "desk.css",
    "token": "not-a-token",
    "player": "Alice",
    "character": "Alice",
    "channel": "wolves",
}
TRAVERSALS = (
    "../pbp.ini",
    "..%2fpbp.ini",
    "%2e%2e%2fpbp.ini",
    "..%2f..%2f..%2fetc%2fpasswd",
    "/etc/passwd",
    "%2fetc%2fpasswd",
    "..\\pbp.ini",
    "w1%00",
    "%00",
    "....//pbp.ini",
    "%252e%252e%252fpbp.ini",
    "games%2f..%2f..%2fpbp.ini",
)
# Parameters that are secrets, not names: a wrong one is refused (403), as a used login link is.
SECRETS = {"token"}
THE_DESKS_OWN = {"<script>"}  # its scripts, each a file of its own (checked apart)


def rules(app: Flask, methods: set[str]) -> Iterator[tuple[str, str, dict[str, str]]]:
    """(method, endpoint, sample arguments) for every rule of the desk but the open ones."""
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) & methods):
            yield (
                method,
                rule.endpoint,
                {name: SAMPLE_VALUES.get(name, "x") for name in rule.arguments},
            )


def url(app: Flask, endpoint: str, arguments: dict[str, str], method: str) -> str:
    return app.url_map.bind("localhost").build(endpoint, arguments, method=method)


def folder_digest(data: Path) -> str:
    """What the data folder holds (every file's path and content; the desk's own `web/`
    folder of login links and keys aside)."""
    digest = hashlib.sha256()
    for path in sorted(
        p for p in data.rglob("*") if p.is_file() and "web" not in p.relative_to(data).parts
    ):
        digest.update(str(path.relative_to(data)).encode() + path.read_bytes())
    return digest.hexdigest()


@pytest.fixture
def app(site) -> Flask:
    assert site.pbp("advance", "w1") == 0  # a draft to aim at
    made = make_app(site.settings())
    made.config["TESTING"] = True
    return made


def logged_in(app: Flask, site):
    client = app.test_client()
    assert client.get(f"/login/{new_login_link(site.data)}").status_code == 302
    return client


def test_no_page_or_action_answers_without_a_session(app, site):
    set_password(site.data, "correct horse battery")  # so the login page has a form
    before = folder_digest(site.data)
    anonymous = app.test_client()
    token = csrf_of(anonymous.get("/login").data)  # a valid token of an anonymous session
    walked = 0
    for method, endpoint, arguments in rules(app, {"GET", "POST"}):
        if endpoint in OPEN_ENDPOINTS:
            continue
        for data in ({}, {"csrf_token": token}):
            if method == "GET" and data:
                continue
            answer = anonymous.open(url(app, endpoint, arguments, method), method=method, data=data)
            walked += 1
            refused = (
                answer.status_code in (403, 405)
                or (answer.status_code == 302 and answer.headers["Location"].startswith("/login"))
                or (answer.status_code == 400 and not data)
            )  # no CSRF token: refused before anything
            assert refused, f"{method} {endpoint} answered {answer.status_code} without a session"
            # with a valid token the only thing missing is the login: it is asked for
            if data:
                assert answer.status_code == 302 and answer.headers["Location"].startswith(
                    "/login"
                ), endpoint
    assert walked >= 8
    assert folder_digest(site.data) == before


def test_every_post_without_or_with_a_forged_csrf_token_is_refused(app, site):
    desk = logged_in(app, site)
    real = csrf_of(desk.get("/games/w1/drafts").data)
    other_site = make_site(site.root.parent / "other")
    other = logged_in(make_app(other_site.settings()), other_site)
    forged = {
        "missing": {},
        "empty": {"csrf_token": ""},
        "made up": {"csrf_token": "A" * len(real)},
        "tampered": {"csrf_token": real[:-2] + ("AA" if not real.endswith("AA") else "BB")},
        "another desk's": {"csrf_token": csrf_of(other.get("/").data)},
    }
    before = folder_digest(site.data)
    posts = [(endpoint, arguments) for _, endpoint, arguments in rules(app, {"POST"})]
    assert {
        "drafts.approve",
        "drafts.save",
        "drafts.publish",
        "drafts.approve_all",
        "login.logout",
    } <= {endpoint for endpoint, _ in posts}
    for endpoint, arguments in posts:
        for name, data in forged.items():
            answer = desk.post(
                url(app, endpoint, arguments, "POST"),
                data={**data, "text": "changed", "password": "x" * 12, "force": "yes"},
            )
            assert answer.status_code == 400, f"{endpoint} took a {name} CSRF token"
    assert folder_digest(site.data) == before
    assert desk.get("/games/w1/drafts").status_code == 200  # still logged in: nothing logged out


def test_a_session_of_one_data_folder_is_refused_by_another(site, tmp_path):
    first = make_app(site.settings())
    second_site = make_site(tmp_path / "second")
    client = first.test_client()
    assert client.get(f"/login/{new_login_link(site.data)}").status_code == 302
    cookie = client.get_cookie("pbp_desk")
    assert cookie is not None
    for second in (make_app(second_site.settings()), _same_key_app(site, second_site)):
        stranger = second.test_client()
        stranger.set_cookie("pbp_desk", cookie.value)
        answer = stranger.get("/drafts")
        assert answer.status_code == 302 and answer.headers["Location"].startswith("/login")


def _same_key_app(site, second_site) -> Flask:
    """The second folder's desk with the first one's signing key copied over: the session
    still names the first folder, so it is refused all the same."""
    from pbp.web.credentials import KEY_FILE, web_folder

    (web_folder(second_site.data) / KEY_FILE).write_bytes(
        (web_folder(site.data) / KEY_FILE).read_bytes()
    )
    return make_app(second_site.settings())


class Reads:
    """Every file opened while armed (Python's `open` audit event), for the traversal walk."""

    def __init__(self) -> None:
        self.armed = False
        self.paths: list[str] = []
        sys.addaudithook(self._hook)

    def _hook(self, event: str, arguments: tuple) -> None:
        if self.armed and event == "open" and isinstance(arguments[0], (str, bytes)):
            self.paths.append(str(arguments[0]))


READS = Reads()  # an audit hook stays for the process: one, armed only within the walk


def test_path_traversal_in_every_url_parameter_is_not_found_and_reads_nothing_outside(app, site):
    (site.root / "outside-secret.txt").write_text("TOP-SECRET-OUTSIDE")
    desk = logged_in(app, site)
    allowed = (
        str(site.data.resolve()),
        str(Path(app.template_folder or "").resolve().parent),
        sys.prefix,
        sys.base_prefix,
        str(Path(__file__).resolve().parents[2]),
    )
    walked = 0
    for method, endpoint, arguments in rules(app, {"GET", "POST"}):
        for name in arguments:
            for payload in TRAVERSALS:
                path = url(app, endpoint, {**arguments, name: "PAYLOAD"}, method).replace(
                    "PAYLOAD", payload
                )
                token = csrf_of(desk.get("/drafts").data)
                READS.armed = True
                try:
                    answer = desk.open(
                        path,
                        method=method,
                        data={"csrf_token": token} if method == "POST" else None,
                        follow_redirects=True,
                    )  # a `//` is merged by a redirect first
                finally:
                    READS.armed = False
                walked += 1
                expected = (403, 404, 405) if name in SECRETS else (404, 405)
                assert answer.status_code in expected, (
                    f"{method} {path} answered {answer.status_code}"
                )
                assert b"TOP-SECRET" not in answer.data and b"[pbp]" not in answer.data
    outside = [path for path in READS.paths if not str(Path(path).resolve()).startswith(allowed)]
    assert READS.paths, "the audit hook saw no file opened at all"
    assert walked >= 20 and outside == []


def test_hostile_names_and_posts_are_inert_on_every_page(tmp_path):
    site = make_hostile_site(tmp_path / "hostile")
    app = make_app(site.settings())
    app.config["TESTING"] = True
    desk = logged_in(app, site)
    pages = 0
    for _, endpoint, arguments in rules(app, {"GET"}):
        if endpoint in OPEN_ENDPOINTS:
            continue
        answer = desk.get(url(app, endpoint, arguments, "GET"))
        if answer.status_code != 200 or answer.mimetype != "text/html":
            continue  # the pages' version stamps (JSON) and the map (an <img>, where no script runs)
        html = answer.data.decode()
        pages += 1
        assert active_parts(html, THE_DESKS_OWN) == [], endpoint
        scripts = re.findall(r"<script[^>]*>", html)
        assert scripts and all(
            re.fullmatch(r'<script src="/static/[\w./-]+"( defer)?>', tag) for tag in scripts
        ), (endpoint, scripts)  # the desk's own script files only
        assert RLO not in html and ZWSP not in html, endpoint  # shown as ⟨U+202E⟩, never acting
    assert pages >= 3
    drafts = desk.get("/games/w1/drafts/N0").data.decode()
    assert "⟨U+202E⟩txet desrever⟨U+200B⟩" in drafts
    assert "&lt;script&gt;alert(&#34;draft&#34;)&lt;/script&gt;" in drafts


def test_the_sixth_wrong_password_in_a_minute_is_refused_with_429(site):
    set_password(site.data, "correct horse battery")
    client = make_app(site.settings()).test_client()
    token = csrf_of(client.get("/login").data)
    limiter.reset()
    try:
        answers = [
            client.post(
                "/login", data={"password": f"wrong guess {n}", "csrf_token": token}
            ).status_code
            for n in range(6)
        ]
        assert answers == [403] * 5 + [429]
        right = client.post(
            "/login", data={"password": "correct horse battery", "csrf_token": token}
        )
        assert right.status_code == 429  # even the right one waits out the minute
    finally:
        limiter.reset()


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/",
        "https://evil.example/",
        "http:evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "javascript:alert(1)",
        "%2f%2fevil.example",
        " //evil.example",
        "///evil.example",
    ],
)
def test_next_never_leads_off_the_desk(site, target):
    set_password(site.data, "correct horse battery")
    limiter.reset()
    client = make_app(site.settings()).test_client()
    form = client.get("/login", query_string={"next": target}).data.decode()
    assert "evil" not in form.split('name="next"')[1].split(">")[0] and "javascript" not in form
    answer = client.post(
        "/login",
        data={
            "password": "correct horse battery",
            "next": target,
            "csrf_token": csrf_of(form.encode()),
        },
    )
    assert answer.status_code == 302
    location = answer.headers["Location"]
    assert location.startswith("/") and not location.startswith("//") and "evil" not in location
    limiter.reset()
