"""A release's upgrade fixture (tests/upgrades/make_fixture.py) unpacked for a test: its
data folder, its settings pointed at a local Discourse that holds the fixture's thread,
and the players who go on answering their mail (docs/design.md: Releases and upgrades)."""

from __future__ import annotations

import json
import re
import tarfile
from pathlib import Path

from pbp.demo.discourse_server import DiscoursePost, LocalDiscourse, Topic

FOLDERS = Path(__file__).parent / "folders"
RELEASES = sorted(path.name.removesuffix(".tar.gz") for path in FOLDERS.glob("*.tar.gz"))
BOT, API_KEY = "pbp", "fixture-key"


def unpack(release: str, into: Path) -> Path:
    """The fixture of `release` unpacked into `into`; returns the settings file."""
    with tarfile.open(FOLDERS / f"{release}.tar.gz") as archive:
        archive.extractall(into, filter="data")
    return into / "pbp.ini"


def forum_for(settings: Path) -> LocalDiscourse:
    """A local Discourse holding the fixture's topics and posts, with the settings file
    pointed at it."""
    state = json.loads((settings.parent / "forum.json").read_text(encoding="utf-8"))
    server = LocalDiscourse(username=BOT, api_key=API_KEY)
    server.topics = {t["id"]: Topic(**t) for t in state["topics"]}
    server.posts = {p["id"]: DiscoursePost(**p) for p in state["posts"]}
    server.clock = state["clock"]
    server.start()
    text = settings.read_text(encoding="utf-8")
    settings.write_text(re.sub(r"(?m)^url = .*$", f"url = {server.url}", text), encoding="utf-8")
    return server
