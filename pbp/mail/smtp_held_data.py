"""The smtplib clients `pbp.mail.smtp` sends with: smtplib's own, but with the end of a
mail's data held until the outbox says it is ready (docs/design.md: Reliability rules —
Outbox). `ready()` is called after the message's data went to the server and before the
final "."; `meanwhile()` once that "." is sent, before the server's answer is read.
"""

from __future__ import annotations

import smtplib
from typing import Any, Callable, Union


def ready_now() -> None:
    """Nothing to wait for before the end of the data."""


class NotReady(Exception):
    """What `ready` raised, carried out of smtplib (it is not an SMTP error)."""

    def __init__(self, error: BaseException):
        super().__init__(str(error))
        self.error = error


class HeldEnd:
    """smtplib's DATA command with `ready()` called before the final "." (see the module's
    docstring). The rest is smtplib's own `SMTP.data`."""

    ready: Callable[[], None] = staticmethod(ready_now)
    meanwhile: Callable[[], None] = staticmethod(ready_now)

    def data(self, msg: Any) -> tuple[int, bytes]:
        self.putcmd("data")  # type: ignore[attr-defined]
        code, reply = self.getreply()  # type: ignore[attr-defined]
        if code != 354:
            raise smtplib.SMTPDataError(code, reply)
        if isinstance(msg, str):
            msg = smtplib._fix_eols(msg).encode("ascii")  # type: ignore[attr-defined]
        quoted = smtplib._quote_periods(msg)  # type: ignore[attr-defined]
        if quoted[-2:] != smtplib.bCRLF:
            quoted += smtplib.bCRLF
        self.send(quoted)  # type: ignore[attr-defined]
        try:
            self.ready()
        except BaseException as error:
            raise NotReady(error) from error
        self.send(b"." + smtplib.bCRLF)  # type: ignore[attr-defined]
        self.meanwhile()
        return self.getreply()  # type: ignore[attr-defined, no-any-return]


class PlainClient(HeldEnd, smtplib.SMTP):
    pass


class TlsClient(HeldEnd, smtplib.SMTP_SSL):
    pass


HeldClient = Union[PlainClient, TlsClient]
