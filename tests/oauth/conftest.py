"""A local OAuth2 provider with a Dovecot and an SMTP server that accept its tokens
(tests/fixtures/oauth_server.py, tests/fixtures/mailserver.py), one set per module."""
from __future__ import annotations

import pytest

from tests.fixtures.mailserver import Dovecot, SmtpServer
from tests.fixtures.oauth_server import OAuthServer


@pytest.fixture(scope="module")
def oauth_server():
    server = OAuthServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def oauth_dovecot(oauth_server):
    server = Dovecot(introspection_url=f"{oauth_server.url}/introspect")
    try:
        server.start()
        yield server
    finally:
        server.cleanup()


@pytest.fixture(scope="module")
def oauth_smtp(oauth_dovecot, oauth_server):
    server = SmtpServer(oauth_dovecot, introspection_url=f"{oauth_server.url}/introspect").start()
    try:
        yield server
    finally:
        server.stop()
