"""`pbp web` as a host runs it (docs/design.md: The host's desk — as safe as the mailbox):
loopback unless told otherwise, HTTPS required elsewhere, the password set from standard
input, a fresh login link for a desk already running, and the desk served over HTTPS with
a certificate of the host's."""

from __future__ import annotations

import os
import signal
import ssl
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from pbp.web.credentials import password_matches

from tests.web.conftest import REPOSITORY


def pbp(site, *arguments: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pbp", "web", *arguments, "--settings", str(site.settings_file)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
    )


def test_another_address_needs_the_flag_and_https_and_every_problem_is_listed(site, tmp_path):
    refused = pbp(
        site, "--host", "0.0.0.0", "--port", "70000", "--tls-cert", str(tmp_path / "none.pem")
    )
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    for problem in (
        "--port 70000 is not a port",
        "--tls-cert and --tls-key go together",
        "none.pem is not a file",
        "0.0.0.0 is not this machine alone: add --allow-remote",
    ):
        assert problem in refused.stderr, refused.stderr
    no_tls = pbp(site, "--host", "0.0.0.0", "--allow-remote")
    assert (
        no_tls.returncode != 0
        and "needs HTTPS: give --tls-cert and --tls-key, or --behind-proxy" in no_tls.stderr
    )


def test_the_password_is_set_from_standard_input_and_a_short_one_is_refused(site):
    short = pbp(site, "--set-password", stdin="short\n")
    assert short.returncode != 0 and "at least 10" in short.stderr
    assert not password_matches(site.data, "short")
    done = pbp(site, "--set-password", stdin="a long enough passphrase\n")
    assert done.returncode == 0 and "password is set" in done.stdout
    assert password_matches(site.data, "a long enough passphrase")


def test_a_login_link_for_a_running_desk(site):
    printed = pbp(site, "--login-link", "--port", "8123")
    assert printed.returncode == 0
    assert printed.stdout.startswith("Log in once, within 15 minutes: http://127.0.0.1:8123/login/")


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def test_the_desk_serves_https_with_the_hosts_certificate_and_secure_cookies(site, certificate):
    cert, key = certificate
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pbp",
            "web",
            "--port",
            "0",
            "--tls-cert",
            str(cert),
            "--tls-key",
            str(key),
            "--settings",
            str(site.settings_file),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
    )
    try:
        assert process.stdout is not None
        base = process.stdout.readline().split(": ", 1)[1].strip()
        link = process.stdout.readline().split(": ", 1)[1].strip()
        assert base.startswith("https://127.0.0.1:") and link.startswith(base)
        trusting = ssl.create_default_context(cafile=str(cert))
        opener = urllib.request.build_opener(
            urllib.request.HTTPSHandler(context=trusting), NoRedirects()
        )
        try:
            opener.open(link, timeout=30)
        except urllib.error.HTTPError as answer:  # the login link answers with a redirect
            assert answer.code == 302
            cookie = answer.headers["Set-Cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
        with pytest.raises(urllib.error.URLError):  # a client that does not trust it stops
            urllib.request.urlopen(base, timeout=30)
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments, **keywords):
        return None
