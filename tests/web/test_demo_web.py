"""`pbp demo --web`: one command plays a demo game into a kept folder, stops it mid-way
with every order of the open phase in and drafts waiting, and serves the host's desk on
it, printing the login link (docs/host/desk.md)."""

from __future__ import annotations

import http.cookiejar
import os
import signal
import subprocess
import sys
import urllib.request

from tests.web.conftest import REPOSITORY


def test_pbp_demo_web_serves_the_desk_on_a_game_in_progress(tmp_path):
    kept = tmp_path / "demo"
    process = subprocess.Popen(
        [sys.executable, "-m", "pbp", "demo", "--web", "--port", "0", "--keep", str(kept)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
    )
    assert process.stdout is not None
    try:
        said = []
        for line in process.stdout:
            said.append(line)
            if line.startswith("Log in once"):
                break
        words = "".join(said)
        assert "The demo stops in Turn 1 — decision, every order in" in words, words
        assert f"pbp web --settings {kept / 'pbp-demo.ini'}" in words
        link = said[-1].split(": ", 1)[1].strip()
        browser = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        games = browser.open(link).read().decode()
        assert "inf1" in games and "T1-decision" in games
        actions = browser.open(link.split("/login/")[0] + "/games/inf1/actions").read().decode()
        assert "Host actions: game inf1" in actions and "Extend the deadline" in actions
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
