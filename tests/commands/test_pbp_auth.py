"""`pbp auth` against the local OAuth2 provider, both flows driven from the test as a
person at a browser would, then `pbp poll` logging in to Dovecot with the stored token."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import urlopen

import pytest
import requests

from tests.fixtures.harness import imap_over_tls, write_settings

REPO = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


def oauth_settings(root: Path, provider, dovecot, address: str, login: str = "xoauth2") -> Path:
    return write_settings(
        root / "pbp.ini",
        {
            "pbp": {"data": "data", "transport": "imap", "from_address": address},
            "imap": imap_over_tls(dovecot, address, login=login),
            "smtp": {"host": "127.0.0.1", "port": 1, "security": "none"},
            "oauth": {
                "provider": "generic",
                "authorization_endpoint": f"{provider.url}/authorize",
                "token_endpoint": f"{provider.url}/token",
                "device_endpoint": f"{provider.url}/device",
                "client_id": provider.client_id,
                "client_secret": provider.client_secret,
                "scope": "mail",
            },
        },
    )


def start_auth(settings: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "pbp", "auth", "--settings", str(settings), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=settings.parent,
        env=os.environ.copy(),
    )


def line_matching(process: subprocess.Popen, pattern: str) -> re.Match:
    seen = []
    for line in process.stdout:
        seen.append(line)
        found = re.search(pattern, line)
        if found:
            return found
    raise AssertionError(
        f"pbp auth never printed {pattern!r}: {''.join(seen)}{process.stderr.read()}"
    )


def finish(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, f"{out}{err}"
    return out


def assert_token_stored_and_usable(
    root: Path, settings: Path, provider, dovecot, address: str
) -> None:
    token_file = root / "data" / "oauth-refresh-token"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    stored = token_file.read_text().strip()
    assert provider.refresh_tokens[stored] == address
    dovecot.deliver_raw(address, b"From: stranger@example.net\r\nSubject: hi\r\n\r\nhello\r\n")
    done = subprocess.run(
        [sys.executable, "-m", "pbp", "poll", "--settings", str(settings)],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Mail read: 1 judged" in done.stdout
    assert stored not in done.stdout + done.stderr


def test_pbp_auth_loopback_flow_stores_a_refresh_token_that_logs_in(
    tmp_path, oauth_server, oauth_dovecot
):
    address = oauth_dovecot.add_user(oauth_dovecot.new_address("host"))
    oauth_server.consenting_user = address
    settings = oauth_settings(tmp_path, oauth_server, oauth_dovecot, address)
    process = start_auth(settings, "--flow", "loopback", "--no-browser")
    try:
        consent_page = line_matching(process, r"(http://127\.0\.0\.1:\d+/authorize\?\S+)").group(1)
        assert "code_challenge=" in consent_page
        redirect = requests.get(
            consent_page, allow_redirects=False, timeout=10
        )  # the person allows access
        assert redirect.status_code == 302
        back = requests.get(redirect.headers["Location"], timeout=10)  # the browser returns to pbp
        assert "close this window" in back.text
        out = finish(process)
    finally:
        process.kill() if process.poll() is None else None
    assert "Saved the refresh token" in out
    assert_token_stored_and_usable(tmp_path, settings, oauth_server, oauth_dovecot, address)


def test_pbp_auth_device_flow_stores_a_refresh_token_that_logs_in(
    tmp_path, oauth_server, oauth_dovecot
):
    address = oauth_dovecot.add_user(oauth_dovecot.new_address("host"))
    settings = oauth_settings(tmp_path, oauth_server, oauth_dovecot, address, login="oauthbearer")
    process = start_auth(settings, "--flow", "device")
    try:
        code = line_matching(process, r"enter the code (\w+)").group(1)
        with urlopen(
            f"{oauth_server.url}/device/approve",
            data=urlencode({"user_code": code, "user": address}).encode(),
            timeout=10,
        ):
            pass
        finish(process)
    finally:
        process.kill() if process.poll() is None else None
    assert_token_stored_and_usable(tmp_path, settings, oauth_server, oauth_dovecot, address)


def test_pbp_auth_without_a_client_id_is_one_clear_line(tmp_path, oauth_server, oauth_dovecot):
    settings = oauth_settings(tmp_path, oauth_server, oauth_dovecot, "host@example.org")
    settings.write_text(settings.read_text().replace(f"client_id = {oauth_server.client_id}\n", ""))
    done = subprocess.run(
        [sys.executable, "-m", "pbp", "auth", "--settings", str(settings), "--flow", "device"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "pbp: [oauth] client_id must be set for this flow; set it (or [oauth] provider) "
        "in the settings file."
    )
