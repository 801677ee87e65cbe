"""Opening an IMAP connection, logging in on it, and waiting in IDLE on it (RFC 2177), for
pbp.mail.imap.mailbox (docs/design.md: Reliability rules — Ingest).

Login is by password, or by an OAuth2 access token (`login = "xoauth2"` or
`"oauthbearer"`, tokens from a pbp.mail.sign_in.oauth.TokenSource); a refused token is
refreshed and tried once more.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Callable

from imapclient import IMAPClient
from imapclient.exceptions import LoginError

from pbp.mail.imap.wire import announces_mail, quietly_close
from pbp.mail.sign_in.oauth import TokenSource, log_in_with_token
from pbp.settings import Security


def open_connection(
    host: str,
    port: int,
    security: Security,
    ssl_context: ssl.SSLContext | None,
    timeout: float,
    log_in: Callable[[IMAPClient], None],
) -> IMAPClient:
    """A connection to the server, secured as `security` says and logged in by `log_in`."""
    # Loading the system's certificates takes tens of milliseconds: only for TLS.
    context = (ssl_context or ssl.create_default_context()) if security != "none" else None
    client = IMAPClient(
        host,
        port,
        ssl=security == "tls",
        ssl_context=context if security == "tls" else None,
        timeout=timeout,
    )
    try:
        if security == "starttls":
            client.starttls(context)
        log_in(client)
    # Whatever failed, the half-open connection is closed before the error goes on.
    except Exception:
        quietly_close(client)
        raise
    return client


def log_in(
    client: IMAPClient, login: str, user: str, password: str, token_source: TokenSource | None
) -> None:
    """Log in by password, or with an OAuth2 access token (`login` "xoauth2" or
    "oauthbearer")."""
    if login == "password":
        client.login(user, password)
        return
    assert token_source is not None  # the mailbox refuses a token login without one
    log_in_by = client.oauth2_login if login == "xoauth2" else client.oauthbearer_login
    log_in_with_token(token_source, lambda token: log_in_by(user, token), LoginError)


def idle_until_mail(
    client: IMAPClient,
    seconds: float,
    stopped: Callable[[], bool],
    on_idle: Callable[[], None],
    check_every: float,
) -> bool:
    """Wait in IDLE at most `seconds` for the server to announce new mail; True if it did
    (see pbp.mail.imap.mailbox.ImapMailbox.wait_for_mail)."""
    give_up = time.monotonic() + seconds
    client.idle()
    on_idle()
    announced = False
    try:
        while not announced and not stopped():
            left = give_up - time.monotonic()
            if left <= 0:
                break
            announced = announces_mail(client.idle_check(timeout=min(check_every, left)))
    finally:
        _text, responses = client.idle_done()  # mail announced while IDLE ended counts too
    return announced or announces_mail(responses)
