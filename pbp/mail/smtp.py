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

`send_when(message, ready, meanwhile)` sends the same way, but calls `ready` after the
message's data went to the server and before the end of the data: the server cannot accept
the message before `ready` returns, and drops it if the connection closes first. The outbox
waits there for the previous mail's mark to reach the disk, so the wait overlaps the next
mail's envelope and data instead of coming before them (docs/design.md: Reliability rules —
Outbox). `meanwhile` (which must not raise) is called once the end of the data is sent,
before the server's answer is read: the outbox builds its next mail there while the server
considers this one, and has `prepare` flatten it to the bytes `send_message` would send
(most of what sending a mail costs this process), so that work overlaps the wait too.

Login is by password, or by an OAuth2 access token (`login = "xoauth2"` or
`"oauthbearer"`, pbp.mail.sign_in.oauth); a refused token is refreshed and tried once more, and a
token that is still refused is a transient error (the mail waits while the host runs
`pbp auth` again).
"""

from __future__ import annotations

import io
import smtplib
import socket
import ssl
from email.generator import BytesGenerator
from email.message import EmailMessage
from email.utils import getaddresses
from typing import Callable

from pbp.mail.sign_in.oauth import (
    OAuthTrouble,
    TokenSource,
    log_in_with_token,
    oauthbearer_response,
    token_source_for,
    xoauth2_response,
)
from pbp.mail.smtp_held_data import HeldClient, NotReady, PlainClient, TlsClient, ready_now
from pbp.ports import MailSender, PermanentSendError, TransientSendError
from pbp.settings import Security


class SmtpSender(MailSender):
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
        self.login, self.token_source = login, token_source_for("SMTP", login, token_source)
        self._client: HeldClient | None = None
        # The next message's (message, envelope, bytes), made by `prepare`.
        self._prepared: tuple[EmailMessage, tuple[str, str], bytes | None] | None = None

    def _connect(self) -> HeldClient:
        # Loading the system's certificates takes tens of milliseconds: only for TLS.
        context = (
            (self.ssl_context or ssl.create_default_context()) if self.security != "none" else None
        )
        if self.security == "tls":
            client: HeldClient = TlsClient(
                self.host, self.port, timeout=self.timeout, context=context
            )
        else:
            client = PlainClient(self.host, self.port, timeout=self.timeout)
        try:
            # The end of the data goes out alone after `ready` (see HeldEnd): without
            # this, Nagle's algorithm would hold it back until the data's acknowledgement.
            if client.sock is not None:
                client.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            client.ehlo()
            if self.security == "starttls":
                client.starttls(context=context)
                client.ehlo()
            if self.login != "password":
                self._log_in_with_token(client)
            elif self.user:
                client.login(self.user, self.password or "")
        except (
            Exception
        ):  # whatever failed, the half-open connection is closed before the error goes on
            _quietly_close(client)
            raise
        return client

    def _log_in_with_token(self, client: smtplib.SMTP) -> None:
        assert self.token_source is not None  # __init__ refuses a token login without one

        def log_in(token: str) -> None:
            if self.login == "xoauth2":
                response = xoauth2_response(self.user or "", token)
            else:
                response = oauthbearer_response(self.user or "", token, self.host, self.port)
            client.auth(self.login.upper(), lambda challenge=None: response)

        try:
            log_in_with_token(self.token_source, log_in, smtplib.SMTPAuthenticationError)
        except smtplib.SMTPAuthenticationError as error:
            raise TransientSendError(
                f"the SMTP server {self.host}:{self.port} refused the OAuth2 token "
                f"for {self.user} ({error.smtp_code}); run `pbp auth` if this "
                "goes on"
            ) from None

    def send(self, message: EmailMessage) -> None:
        self.send_when(message, ready_now, ready_now)

    def prepare(self, message: EmailMessage) -> None:
        """The envelope and the bytes of `message`, made ahead of its sending (the outbox
        calls this while the server considers the mail before): flattening a mail is most
        of what sending it costs this process."""
        self._prepared = None
        try:
            envelope = self._envelope(message)
            self._prepared = (message, envelope, _flattened(message, envelope))
        except Exception:  # noqa: BLE001 - sending the message raises it again, where it is classified
            pass

    def _envelope(self, message: EmailMessage) -> tuple[str, str]:
        """(envelope sender, the one recipient)."""
        return self.envelope_sender or _single_address(message, "From") or "", _single_recipient(
            message
        )

    def send_when(
        self, message: EmailMessage, ready: Callable[[], None], meanwhile: Callable[[], None]
    ) -> None:
        """`send`, with `ready` called before the server can accept the message and
        `meanwhile` while it considers it (see the module's docstring); what `ready` raises
        goes on as it is, the message unsent."""
        prepared, self._prepared = self._prepared, None
        if prepared is not None and prepared[0] is message:
            (sender, recipient), data = prepared[1], prepared[2]
        else:
            (sender, recipient), data = self._envelope(message), None
        try:
            self._send_on_live_connection(message, sender, recipient, ready, meanwhile, data)
        except NotReady as held:
            self._drop_connection()  # the message's data ends nowhere: the server drops it
            raise held.error from None
        except smtplib.SMTPRecipientsRefused as error:
            code, reply = next(iter(error.recipients.values()))
            raise _classified(code, f"{recipient} was refused: {code} {_text(reply)}") from error
        except smtplib.SMTPResponseException as error:  # sender refused, DATA refused, auth…
            self._drop_connection()
            raise _classified(
                error.smtp_code,
                f"sending to {recipient} failed: {error.smtp_code} {_text(error.smtp_error)}",
            ) from error
        except OAuthTrouble as error:
            self._drop_connection()
            raise TransientSendError(str(error)) from error
        except (
            smtplib.SMTPServerDisconnected,
            smtplib.SMTPConnectError,
            socket.timeout,
            OSError,
        ) as error:
            self._drop_connection()
            raise TransientSendError(
                f"could not reach the SMTP server {self.host}:{self.port}: {error}"
            ) from error
        except smtplib.SMTPException as error:
            self._drop_connection()
            raise TransientSendError(f"sending to {recipient} failed: {error}") from error

    def _send_on_live_connection(
        self,
        message: EmailMessage,
        sender: str,
        recipient: str,
        ready: Callable[[], None],
        meanwhile: Callable[[], None],
        data: bytes | None,
    ) -> None:
        """Send on the kept connection; if the server had closed or reset it meanwhile,
        open a new one and send once more. A new connection that fails is not retried here:
        the error goes to the outbox, which retries the row later with backoff."""
        if self._client is not None:
            try:
                self._send_message(self._client, message, sender, recipient, ready, meanwhile, data)
                return
            except (smtplib.SMTPServerDisconnected, ConnectionError):
                self._drop_connection()
        self._client = self._connect()
        self._send_message(self._client, message, sender, recipient, ready, meanwhile, data)

    @staticmethod
    def _send_message(
        client: HeldClient,
        message: EmailMessage,
        sender: str,
        recipient: str,
        ready: Callable[[], None],
        meanwhile: Callable[[], None],
        data: bytes | None,
    ) -> None:
        """The message's prepared bytes (`prepare`) when there are, else smtplib flattens it."""
        client.ready, client.meanwhile = ready, meanwhile  # read by HeldEnd.data
        try:
            if data is not None:
                client.sendmail(sender, [recipient], data)
            else:
                client.send_message(message, from_addr=sender, to_addrs=[recipient])
        finally:
            client.ready = client.meanwhile = ready_now

    def _drop_connection(self) -> None:
        if self._client is not None:
            _quietly_close(self._client)
            self._client = None

    def close(self) -> None:
        self._prepared = None
        if self._client is not None:
            try:
                self._client.quit()
            except Exception:  # a server that does not answer QUIT is closed all the same
                pass
            _quietly_close(self._client)
            self._client = None


def _flattened(message: EmailMessage, envelope: tuple[str, str]) -> bytes | None:
    """The bytes smtplib's `send_message` sends for `message` with this envelope, or None
    for a message it must treat itself: one with a Bcc to take out, or an envelope address
    that needs SMTPUTF8 (which the server must be asked for)."""
    if any(name in message for name in ("Bcc", "Resent-Bcc")) or not "".join(envelope).isascii():
        return None
    with io.BytesIO() as flat:
        BytesGenerator(flat).flatten(message, linesep="\r\n")
        return flat.getvalue()


def _single_address(message: EmailMessage, header: str) -> str | None:
    addresses = [
        address for _name, address in getaddresses(message.get_all(header) or []) if address
    ]
    return addresses[0] if len(addresses) == 1 else None


def _single_recipient(message: EmailMessage) -> str:
    """docs/design.md, Identity: one message per recipient — never a list that would show
    addresses."""
    recipients = [
        address
        for _name, address in getaddresses(
            [
                *(message.get_all("To") or []),
                *(message.get_all("Cc") or []),
                *(message.get_all("Bcc") or []),
            ]
        )
        if address
    ]
    if len(recipients) != 1:
        raise PermanentSendError(
            f"a message must have exactly one recipient, this one has {len(recipients)}"
        )
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
