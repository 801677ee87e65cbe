"""OAuth2 access tokens for IMAP and SMTP logins (XOAUTH2 and OAUTHBEARER).

The host's refresh token (got once with `pbp auth`) lives in a file only the host can read
(0600); pbp exchanges it at the provider's token endpoint for short-lived access tokens,
with authlib's OAuth2 client. An access token is refreshed a little before it expires and
again whenever a server refuses it (a token revoked or expired early). No token ever
appears in a log line or an error message.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from pbp.errors import UserError
from pbp.settings import OAuthSettings
from pbp.settings.secret_values import remember as remember_secret
from pbp.durable import private_folder, write_atomically

# Refresh this long before the provider's stated expiry: a login that starts with a token
# a few seconds from expiring could fail half-way.
EXPIRY_MARGIN_SECONDS = 300.0
HTTP_TIMEOUT_SECONDS = 30.0


class OAuthTrouble(UserError):
    """The provider would not give an access token; the message says what the host can do."""


def session_for(settings: OAuthSettings, **extra: Any) -> Any:
    """authlib's client for the provider; a client with no secret is a public client.
    (authlib and requests are imported when first needed: every `pbp` command would
    otherwise pay for loading them.)"""
    from authlib.integrations.requests_client import (
        OAuth2Session,
    )  # loaded when first needed (see above)

    method = "client_secret_post" if settings.client_secret else "none"
    return OAuth2Session(
        settings.client_id,
        settings.client_secret or None,
        scope=settings.scope or None,
        token_endpoint_auth_method=method,
        timeout=HTTP_TIMEOUT_SECONDS,
        **extra,
    )


def save_refresh_token(path: Path, token: str) -> None:
    """Write the refresh token atomically into a file readable by the host alone (0600),
    in a folder only the host can enter, by the one crash-safe write (pbp.durable)."""
    private_folder(path.parent)
    write_atomically(path, (token + "\n").encode("utf-8"))


def read_refresh_token(path: Path) -> str:
    try:
        token = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise OAuthTrouble(
            f"No OAuth2 refresh token at {path}; run `pbp auth` to get one."
        ) from None
    except OSError as error:
        raise OAuthTrouble(
            f"Cannot read the OAuth2 refresh token at {path} ({error.strerror}); "
            "check the file's owner and permissions."
        ) from None
    if not token:
        raise OAuthTrouble(
            f"The OAuth2 refresh token file {path} is empty; run `pbp auth` to get a token."
        )
    return token


class TokenSource:
    """Access tokens for one account, refreshed from the stored refresh token."""

    def __init__(
        self,
        settings: OAuthSettings,
        refresh_token_path: Path,
        clock: Callable[[], float] = time.time,
        margin: float = EXPIRY_MARGIN_SECONDS,
    ):
        self.settings = settings
        self.path = Path(refresh_token_path)
        self.clock = clock
        self.margin = margin
        self._access_token: str | None = None
        self._expires_at = 0.0
        self.refreshes = (
            0  # how many times a new access token was fetched (for the host's log and tests)
        )

    def access_token(self) -> str:
        if self._access_token is None or self.clock() >= self._expires_at - self.margin:
            self._refresh()
        assert self._access_token is not None  # _refresh set it or raised
        return self._access_token

    def invalidate(self) -> None:
        """A server refused the token: the next `access_token` fetches a new one."""
        self._access_token = None

    def _refresh(self) -> None:
        if not self.settings.token_endpoint:
            raise OAuthTrouble(
                "[oauth] token_endpoint is not set; set it (or [oauth] provider) in the settings"
                " file."
            )
        # loaded when first needed: every `pbp` command would otherwise pay for them
        import requests
        from authlib.integrations.base_client.errors import OAuthError

        refresh_token = read_refresh_token(self.path)
        asked_at = self.clock()
        try:
            with session_for(self.settings) as session:
                token = session.refresh_token(
                    self.settings.token_endpoint, refresh_token=refresh_token
                )
        except OAuthError as error:
            raise OAuthTrouble(
                f"The token endpoint {self.settings.token_endpoint} refused the refresh token "
                f"({error.error}); run `pbp auth` to get a new one."
            ) from None
        except requests.RequestException as error:
            raise OAuthTrouble(
                f"Cannot reach the token endpoint {self.settings.token_endpoint} "
                f"({type(error).__name__}); check [oauth] token_endpoint and the network."
            ) from None
        if not token.get("access_token"):
            raise OAuthTrouble(
                f"The token endpoint {self.settings.token_endpoint} answered without an access "
                "token; check [oauth] client_id and scope."
            )
        self._access_token = token["access_token"]
        remember_secret(token["access_token"])  # never to be logged (pbp.settings.secret_values)
        self._expires_at = asked_at + float(token.get("expires_in") or 3600)
        self.refreshes += 1
        rotated = token.get("refresh_token")
        if (
            rotated and rotated != refresh_token
        ):  # the provider rotates refresh tokens: keep the new one
            remember_secret(rotated)
            save_refresh_token(self.path, rotated)


def xoauth2_response(user: str, access_token: str) -> str:
    """The XOAUTH2 initial client response (Google's and Microsoft's SASL mechanism)."""
    return f"user={user}\x01auth=Bearer {access_token}\x01\x01"


def oauthbearer_response(user: str, access_token: str, host: str, port: int) -> str:
    """The OAUTHBEARER initial client response (RFC 7628)."""
    authzid = user.replace("=", "=3D").replace(",", "=2C")
    return f"n,a={authzid},\x01host={host}\x01port={port}\x01auth=Bearer {access_token}\x01\x01"


def token_source_for(
    protocol: str, login: str, token_source: TokenSource | None
) -> TokenSource | None:
    """The token source of an IMAP or SMTP login (`protocol`), refused when a token login
    (`xoauth2`, `oauthbearer`) has none."""
    if login != "password" and token_source is None:
        raise ValueError(f"an {protocol} {login} login needs a token source")
    return token_source


def log_in_with_token(
    source: TokenSource, log_in: Callable[[str], None], refused: type[Exception]
) -> None:
    """`log_in(access_token)`; a token the server refuses (`refused`) may have expired or
    been revoked early, so it is dropped and a fresh one tried once more; a second
    refusal goes on to the caller."""
    for last_try in (False, True):
        try:
            log_in(source.access_token())
            return
        except refused:
            source.invalidate()
            if last_try:
                raise
