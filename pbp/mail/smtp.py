"""`MailSender` over SMTP with smtplib (docs/design.md: Reliability rules — Outbox: "transient
SMTP errors retry with backoff, permanent ones are recorded and shown to the host";
Identity: "one message per recipient").

Each `send` delivers one message to the single address in its To header (the envelope
recipient). One connection carries a whole batch: it is opened by the first send, reused by
the next ones and closed by `close()` (the outbox calls it at the end of each batch). When
the server dropped a reused connection (idle timeout, a per-connection message limit, a
reset), the same message is sent once more over a new connection; should the drop have come
after the server accepted it, the resent copy carries the same Message-ID.
Errors are sorted into `TransientSendError` (4xx, connection trouble, timeouts) and
`PermanentSendError` (5xx, refused recipient or sender).

Login is by password, or by an OAuth2 access token (`login = "xoauth2"` or
`"oauthbearer"`, pbp.mail.oauth); a refused token is refreshed and tried once more, and a
token that is still refused is a transient error (the mail waits while the host runs
`pbp auth` again).
"""
from __future__ import annotations

import smtplib
import socket
import ssl
from email.message import EmailMessage
from email.utils import getaddresses
from typing import Literal

from pbp.mail.oauth import OAuthTrouble, TokenSource, oauthbearer_response, xoauth2_response
from pbp.ports import PermanentSendError, TransientSendError

Security = Literal["tls", "starttls", "none"]


class SmtpSender:
    def __init__(
        self,
        host: str,
        port: int,
        security: Security,
        user: str | None = None,
        password: str | None = None,
        timeout: float = 30.0,
        ssl_context: ssl.SSLContext | None = None,
        envelope_sender: str | None = None,
        login: str = "password",
        token_source: TokenSource | None = None,
    ) -> None:
        if security not in ("tls", "starttls", "none"):
            raise ValueError(f'SMTP security must be "tls", "starttls" or "none", not {security!r}')
        self.host, self.port, self.security = host, port, security
        self.user, self.password = user, password
        self.timeout = timeout
        self.ssl_context = ssl_context
        self.envelope_sender = envelope_sender
        if login != "password" and token_source is None:
            raise ValueError(f"an SMTP {login} login needs a token source")
        self.login, self.token_source = login, token_source
        self._client: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        # Loading the system's certificates takes tens of milliseconds: only for TLS.
        context = (self.ssl_context or ssl.create_default_context()) if self.security != "none" else None
        if self.security == "tls":
            client: smtplib.SMTP = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=context)
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        try:
            client.ehlo()
            if self.security == "starttls":
                client.starttls(context=context)
                client.ehlo()
            if self.login != "password":
                self._log_in_with_token(client)
            elif self.user:
                client.login(self.user, self.password or "")
        except Exception:  # whatever failed, the half-open connection is closed before the error goes on
            _quietly_close(client)
            raise
        return client

    def _log_in_with_token(self, client: smtplib.SMTP) -> None:
        assert self.token_source is not None  # __init__ refuses a token login without one
        for last_try in (False, True):
            token = self.token_source.access_token()
            if self.login == "xoauth2":
                response = xoauth2_response(self.user or "", token)
            else:
                response = oauthbearer_response(self.user or "", token, self.host, self.port)
            try:
                client.auth(self.login.upper(), lambda challenge=None: response)
                return
            except smtplib.SMTPAuthenticationError as error:
                self.token_source.invalidate()  # expired or revoked early: fetch a new one
                if last_try:
                    raise TransientSendError(f"the SMTP server {self.host}:{self.port} refused the OAuth2 token "
                                             f"for {self.user} ({error.smtp_code}); run `pbp auth` if this "
                                             "goes on") from None

    def send(self, message: EmailMessage) -> None:
        recipient = _single_recipient(message)
        sender = self.envelope_sender or _single_address(message, "From") or ""
        try:
            self._send_on_live_connection(message, sender, recipient)
        except smtplib.SMTPRecipientsRefused as error:
            code, reply = next(iter(error.recipients.values()))
            raise _classified(code, f"{recipient} was refused: {code} {_text(reply)}") from error
        except smtplib.SMTPResponseException as error:  # sender refused, DATA refused, auth…
            self._drop_connection()
            raise _classified(error.smtp_code, f"sending to {recipient} failed: {error.smtp_code} {_text(error.smtp_error)}") from error
        except OAuthTrouble as error:
            self._drop_connection()
            raise TransientSendError(str(error)) from error
        except (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError, socket.timeout, OSError) as error:
            self._drop_connection()
            raise TransientSendError(f"could not reach the SMTP server {self.host}:{self.port}: {error}") from error
        except smtplib.SMTPException as error:
            self._drop_connection()
            raise TransientSendError(f"sending to {recipient} failed: {error}") from error

    def _send_on_live_connection(self, message: EmailMessage, sender: str, recipient: str) -> None:
        """Send on the kept connection; if the server had closed or reset it meanwhile,
        open a new one and send once more. A new connection that fails is not retried here:
        the error goes to the outbox, which retries the row later with backoff."""
        if self._client is not None:
            try:
                self._client.send_message(message, from_addr=sender, to_addrs=[recipient])
                return
            except (smtplib.SMTPServerDisconnected, ConnectionError):
                self._drop_connection()
        self._client = self._connect()
        self._client.send_message(message, from_addr=sender, to_addrs=[recipient])

    def _drop_connection(self) -> None:
        if self._client is not None:
            _quietly_close(self._client)
            self._client = None

    def close(self) -> None:
        if self._client is not None:
            try:
                self._client.quit()
            except Exception:  # a server that does not answer QUIT is closed all the same
                pass
            _quietly_close(self._client)
            self._client = None


def _single_address(message: EmailMessage, header: str) -> str | None:
    addresses = [address for _name, address in getaddresses(message.get_all(header) or []) if address]
    return addresses[0] if len(addresses) == 1 else None


def _single_recipient(message: EmailMessage) -> str:
    """docs/design.md, Identity: one message per recipient — never a list that would show addresses."""
    recipients = [address for _name, address in getaddresses(
        [*(message.get_all("To") or []), *(message.get_all("Cc") or []), *(message.get_all("Bcc") or [])]
    ) if address]
    if len(recipients) != 1:
        raise PermanentSendError(f"a message must have exactly one recipient, this one has {len(recipients)}")
    return recipients[0]


def _classified(code: int, description: str) -> Exception:
    return TransientSendError(description) if 400 <= code < 500 else PermanentSendError(description)


def _text(reply: bytes | str) -> str:
    return reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)


def _quietly_close(client: smtplib.SMTP) -> None:
    try:
        client.close()
    except Exception:  # the socket may be gone already; nothing is left to close
        pass
