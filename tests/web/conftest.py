"""The desk under test: a data folder with one running Werewolf game (`w1`), a Flask test
client logged in to it, and for the browser tests `pbp web` served by a real process and
a real Chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from pbp.cli import main
from pbp.settings import load_settings
from tests.fixtures.harness import Sections, write_settings

PLAYERS = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
REPOSITORY = Path(__file__).resolve().parents[2]


@dataclass
class DeskSite:
    """A data folder with the game `w1` and the settings file that names it."""

    root: Path
    settings_file: Path

    @property
    def data(self) -> Path:
        return self.root / "data"

    def pbp(self, *arguments: str) -> int:
        command, *rest = arguments
        return main([command, "--settings", str(self.settings_file), *rest])

    def settings(self):
        return load_settings(str(self.settings_file))


def desk_settings(
    root: Path, more_sections: Sections | None = None, host_language: str = ""
) -> Path:
    """The desk's test settings in `root`/pbp.ini: the data folder, the host's zone (and
    language, when given), and `more_sections` (a forum, say)."""
    language = {"host_language": host_language} if host_language else {}
    return write_settings(
        root / "pbp.ini",
        {
            "pbp": {
                "data": root / "data",
                "from_address": "pbp@games.example",
                "host_timezone": "Europe/Berlin",
                **language,
            },
            **(more_sections or {}),
        },
    )


def make_site(
    root: Path, more_sections: Sections | None = None, host_language: str = ""
) -> DeskSite:
    """`more_sections`: sections the settings file holds besides [pbp] (a forum, say);
    `host_language`: the language the desk speaks to its host (English unless given)."""
    root.mkdir(parents=True, exist_ok=True)
    settings_file = desk_settings(root, more_sections, host_language)
    roster = root / "roster.csv"
    roster.write_text(
        "name,email,timezone\n"
        + "".join(f"{name},{name.lower()}@example.org,Australia/Sydney\n" for name in PLAYERS)
    )
    site = DeskSite(root, settings_file)
    assert (
        site.pbp(
            "new-game",
            "--ruleset",
            "werewolf",
            "--roster",
            str(roster),
            "--seed",
            "7",
            "--id",
            "w1",
            "--no-send",
        )
        == 0
    )
    return site


@pytest.fixture
def site(tmp_path: Path) -> DeskSite:
    return make_site(tmp_path / "site")


@pytest.fixture
def desk(site: DeskSite):
    """A test client of the desk, logged in (through a one-time link, as the host is)."""
    from pbp.web.app import make_app
    from pbp.web.credentials import new_login_link

    app = make_app(site.settings())
    app.config["TESTING"] = True
    client = app.test_client()
    assert client.get(f"/login/{new_login_link(site.data)}").status_code == 302
    return client


def csrf_of(page: bytes) -> str:
    """The CSRF token of the first form on a page."""
    import re

    found = re.search(rb'name="csrf_token" value="([^"]+)"', page)
    assert found, "the page has no form with a CSRF token"
    return found.group(1).decode()


@dataclass
class LiveDesk:
    base: str
    login_link: str
    process: subprocess.Popen


@pytest.fixture
def live_desk(site: DeskSite) -> Iterator[LiveDesk]:
    """`pbp web --port 0` as a process of its own, over the site's data folder."""
    env = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    process = subprocess.Popen(
        [sys.executable, "-m", "pbp", "web", "--port", "0", "--settings", str(site.settings_file)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    first, second = process.stdout.readline(), process.stdout.readline()
    assert first.startswith("The host's desk for"), first + (
        process.stderr.read() if process.stderr else ""
    )
    desk = LiveDesk(
        first.split(": ", 1)[1].strip().rstrip("/"), second.split(": ", 1)[1].strip(), process
    )
    yield desk
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=30)


def chromium_path() -> str:
    found = (
        os.environ.get("PBP_CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )
    if not found:
        pytest.fail(
            "the browser tests need Chromium: scripts/test installs it (apt-get install chromium)"
        )
    return found


@pytest.fixture
def browser_page(live_desk: LiveDesk):
    """A Chromium page logged in to the live desk."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(live_desk.login_link)
        yield page
        browser.close()


# Where the browser tests save a screenshot of each page they visit: a temporary folder, or
# $PBP_SCREENSHOTS (scripts/desk-screenshots points it at docs/host/desk/ to refresh the
# pictures the documentation shows).
@pytest.fixture
def screenshot(tmp_path: Path):
    folder = Path(os.environ.get("PBP_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)

    def save(page, name: str, full_page: bool = True) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return save


def assert_accessible(page) -> None:
    """The page has one h1, headings that skip no level, and every control a name a
    screen reader reads (a label, aria-label or visible text)."""
    levels = page.eval_on_selector_all("h1, h2, h3, h4, h5, h6", "hs => hs.map(h => +h.tagName[1])")
    assert levels.count(1) == 1, f"the page has {levels.count(1)} h1 headings"
    for before, after in zip(levels, levels[1:]):
        assert after <= before + 1, f"a heading jumps from h{before} to h{after}"
    nameless = page.eval_on_selector_all(
        "input:not([type=hidden]), select, textarea, button",
        """cs => cs.filter(c => {
             const byLabel = c.id && document.querySelector(`label[for="${c.id}"]`);
             const wrapped = c.closest('label');
             const named = c.getAttribute('aria-label') || c.getAttribute('aria-labelledby');
             const text = (c.tagName === 'BUTTON') && c.textContent.trim();
             return !(byLabel || wrapped || named || text);
           }).map(c => c.outerHTML)""",
    )
    assert not nameless, f"controls without a name: {nameless}"
