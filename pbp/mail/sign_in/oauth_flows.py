"""How `pbp auth` gets the host's OAuth2 refresh token, with authlib's client:

- the authorization-code flow with PKCE and a loopback redirect (RFC 8252): pbp listens
  on 127.0.0.1, the host opens the provider's consent page in a browser, and the provider
  redirects the browser back to pbp with a code that pbp exchanges for tokens;
- the device flow (RFC 8628): the host opens the provider's page on any device and types
  the code pbp shows, while pbp asks the token endpoint until the host has agreed.
"""

from __future__ import annotations

import time

import webbrowser

from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

import requests
from authlib.common.security import generate_token
from authlib.integrations.base_client.errors import OAuthError

from pbp.mail.sign_in.oauth import OAuthTrouble, session_for
from pbp.settings import OAuthSettings

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
LOOPBACK = "127.0.0.1"
WAIT_FOR_CONSENT_SECONDS = 600.0
CLOSE_THE_WINDOW = (
    b"<html><body><p>pbp has the authorization. You may close this window.</p></body></html>"
)


def _required(settings: OAuthSettings, *keys: str) -> None:
    missing = [key for key in ("client_id", *keys) if not getattr(settings, key)]
    if missing:
        them = "it" if len(missing) == 1 else "them"
        raise OAuthTrouble(
            f"[oauth] {', '.join(missing)} must be set for this flow; set {them} (or [oauth]"
            " provider) in the settings file."
        )


def _refresh_token_of(token: dict[str, Any]) -> str:
    if not token.get("refresh_token"):
        raise OAuthTrouble(
            "The provider gave no refresh token; check that [oauth] scope asks for offline access "
            "(Microsoft: offline_access) and run `pbp auth` again."
        )
    refresh_token: str = token["refresh_token"]
    return refresh_token


class _RedirectCatcher(HTTPServer):
    """A one-shot HTTP server on loopback that waits for the provider's redirect."""

    def __init__(self, port: int):
        self.query: dict[str, str] | None = None

        catcher = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                query = {
                    key: values[0] for key, values in parse_qs(urlsplit(self.path).query).items()
                }
                if "code" in query or "error" in query:
                    catcher.query = query
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html")
                    self.end_headers()
                    self.wfile.write(CLOSE_THE_WINDOW)
                else:  # a browser asking for /favicon.ico, say
                    self.send_response(404)
                    self.end_headers()

        super().__init__((LOOPBACK, port), Handler)

    @property
    def redirect_uri(self) -> str:
        return f"http://{LOOPBACK}:{self.server_address[1]}/"

    def wait(self, seconds: float) -> dict[str, str]:
        give_up = time.monotonic() + seconds
        while self.query is None:
            left = give_up - time.monotonic()
            if left <= 0:
                raise OAuthTrouble(
                    f"No answer from the browser within {seconds:g} s; run `pbp auth` again."
                )
            self.timeout = left
            self.handle_request()
        return self.query


def authorization_code_flow(
    settings: OAuthSettings,
    show: Callable[[str], None],
    port: int = 0,
    open_browser: bool = True,
    wait: float = WAIT_FOR_CONSENT_SECONDS,
) -> str:
    """The refresh token from a consent given in a browser that comes back to loopback."""
    _required(settings, "authorization_endpoint", "token_endpoint")
    catcher = _listen(port)
    verifier = generate_token(64)
    extra = {"access_type": "offline", "prompt": "consent"} if settings.provider == "google" else {}
    try:
        with session_for(
            settings, redirect_uri=catcher.redirect_uri, code_challenge_method="S256"
        ) as session:
            url, state = session.create_authorization_url(
                settings.authorization_endpoint, code_verifier=verifier, **extra
            )
            show(f"Open this address in a browser and allow access to the mailbox:\n{url}")
            if open_browser:
                webbrowser.open(url)
            answer = catcher.wait(wait)
            _check_answer(answer, state)
            token = session.fetch_token(
                settings.token_endpoint,
                code=answer["code"],
                code_verifier=verifier,
                redirect_uri=catcher.redirect_uri,
            )
    except OAuthError as error:
        raise OAuthTrouble(
            f"The token endpoint refused the authorization code ({error.error}); "
            "run `pbp auth` again."
        ) from None
    except requests.RequestException as error:
        raise OAuthTrouble(
            f"Cannot reach the token endpoint {settings.token_endpoint} ({type(error).__name__}); "
            "check [oauth] token_endpoint and the network."
        ) from None
    finally:
        catcher.server_close()
    return _refresh_token_of(token)


def _listen(port: int) -> _RedirectCatcher:
    """The loopback server the browser comes back to, on `port` (0: any free one)."""
    try:
        return _RedirectCatcher(port)
    except OSError as error:
        raise OAuthTrouble(
            f"Cannot listen on {LOOPBACK}:{port} for the browser's answer ({error.strerror}); "
            "choose another --port."
        ) from None


def _check_answer(answer: dict[str, str], state: str) -> None:
    """Refuse a browser's answer that refuses access or belongs to another request."""
    if "error" in answer:
        raise OAuthTrouble(
            f"The provider refused the authorization ({answer['error']}); "
            "run `pbp auth` again and allow access."
        )
    if answer.get("state") != state:
        raise OAuthTrouble(
            "The browser's answer does not belong to this request (state differs); "
            "run `pbp auth` again."
        )


def _wait_for_consent(
    session: Any, settings: OAuthSettings, answer: dict[str, Any], sleep: Callable[[float], None]
) -> str | None:
    """Ask the token endpoint, as often as the provider allows, until the code shown is
    entered: the refresh token, or None once the code has expired."""
    interval = float(answer.get("interval") or 5)
    give_up = time.monotonic() + float(answer.get("expires_in") or WAIT_FOR_CONSENT_SECONDS)
    while time.monotonic() < give_up:
        sleep(interval)
        try:
            token = session.fetch_token(
                settings.token_endpoint, grant_type=DEVICE_GRANT, device_code=answer["device_code"]
            )
        except OAuthError as error:
            if error.error == "authorization_pending":
                continue
            if error.error == "slow_down":  # RFC 8628 3.5: five seconds more from now on
                interval += 5
                continue
            raise OAuthTrouble(
                f"The provider ended the device flow ({error.error}); run `pbp auth` again."
            ) from None
        return _refresh_token_of(token)
    return None


def device_flow(
    settings: OAuthSettings,
    show: Callable[[str], None],
    sleep: Callable[[float], None] = time.sleep,
) -> str:
    """The refresh token from a consent given on any device with the code shown."""
    _required(settings, "device_endpoint", "token_endpoint")
    try:
        with session_for(settings) as session:
            started = session.post(
                settings.device_endpoint,
                withhold_token=True,
                data={"client_id": settings.client_id, "scope": settings.scope},
            )
            answer = started.json() if started.ok else {}
            if "device_code" not in answer:
                raise OAuthTrouble(
                    f"The device endpoint {settings.device_endpoint} did not start a device flow "
                    f"(HTTP {started.status_code}); check [oauth] client_id and device_endpoint."
                )
            page = answer.get("verification_uri") or answer.get("verification_url", "")
            show(
                f"Open {page} and enter the code {answer['user_code']} to allow access to the"
                " mailbox."
            )
            token = _wait_for_consent(session, settings, answer, sleep)
            if token is not None:
                return token
    except requests.RequestException as error:
        raise OAuthTrouble(
            f"Cannot reach the provider ({type(error).__name__}); check the [oauth] endpoints "
            "and the network."
        ) from None
    raise OAuthTrouble("The code was not entered in time; run `pbp auth` again.")
