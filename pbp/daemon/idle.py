"""`pbp run` waiting in IMAP IDLE (RFC 2177) so a mail gets its receipt within seconds,
not at the next poll (design.md: Real mail providers).

The watcher keeps a connection of its own (IDLE occupies a connection; the daemon's cycles
use theirs) and calls `on_mail` whenever the server announces new mail; the daemon then
runs a cycle at once. IDLE is ended and issued again every `renew` seconds, before the
server's inactivity timeout (RFC 2177 asks clients to re-issue within 29 minutes). A
server without the IDLE capability leaves the daemon polling as before; a lost connection
is opened again after a pause that doubles up to five minutes. Deadlines, reminders and
retries do not depend on the watcher: the daemon's alarm wakes for them as always.
"""

from __future__ import annotations

import threading
from typing import Callable, Protocol

from pbp.schedule import Backoff

# A lost IDLE connection is opened again after a second, then doubling, at most five minutes.
RECONNECT = Backoff(first=1.0, longest=300.0)


class IdleMailbox(Protocol):
    """A mailbox that can wait for new mail (pbp.mail.imap.mailbox.ImapMailbox)."""

    def supports_idle(self) -> bool: ...

    def wait_for_mail(
        self, seconds: float, stopped: Callable[[], bool] = ..., on_idle: Callable[[], None] = ...
    ) -> bool: ...

    def close(self) -> None: ...


class IdleWatcher:
    def __init__(
        self,
        open_mailbox: Callable[[], IdleMailbox],
        on_mail: Callable[[], None],
        renew: float,
        say: Callable[[str], None],
        on_idle: Callable[[int], None] = lambda count: None,
        warn: Callable[[str], None] | None = None,
    ):
        self.open_mailbox = open_mailbox
        self.on_mail = on_mail
        self.on_idle = on_idle  # told the number of IDLE commands accepted so far, after each
        self.renew = renew
        self.say = say
        self.warn = warn or say  # for the watcher's troubles (pbp run logs them as warnings)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.idle_commands = 0  # IDLE commands the server accepted (each renewal is one)
        self._announced = False
        self._failures = 0  # in a row, since IDLE was last accepted

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="pbp-imap-idle", daemon=True)
        self._thread.start()

    def stop(self, wait: float = 5.0) -> None:
        self._stop.set()
        self.join(wait)

    def join(self, wait: float) -> bool:
        """Wait up to `wait` seconds for the watcher to end; True if it has."""
        if self._thread is not None:
            self._thread.join(wait)
        return self._thread is None or not self._thread.is_alive()

    def _idling(self) -> None:
        self.idle_commands += 1
        self._failures = 0
        if not self._announced:  # once per connection: the host's log says IDLE works (again)
            self.say("waiting in IMAP IDLE for new mail")
            self._announced = True
        self.on_idle(self.idle_commands)

    def _run(self) -> None:
        while not self._stop.is_set():
            mailbox: IdleMailbox | None = None
            try:
                mailbox = self.open_mailbox()
                if not mailbox.supports_idle():
                    self.warn("the IMAP server does not offer IDLE; new mail is read at each poll")
                    return
                while not self._stop.is_set():
                    if (
                        mailbox.wait_for_mail(
                            self.renew, stopped=self._stop.is_set, on_idle=self._idling
                        )
                        and not self._stop.is_set()
                    ):
                        self.on_mail()
            except Exception as error:  # noqa: BLE001 - the watcher must never stop the daemon
                self._failures += 1
                pause = RECONNECT.seconds(self._failures)
                if self._failures == 1:  # said once per run of failures (IDLE accepted resets it)
                    self.warn(
                        f"IMAP IDLE failed ({type(error).__name__}: {error}); polling meanwhile, "
                        f"trying IDLE again in {pause:g} s and later"
                    )
                self._announced = False
                self._stop.wait(pause)
            finally:
                if mailbox is not None:
                    try:
                        mailbox.close()
                    except Exception:  # noqa: BLE001 - closing a dead connection may fail; it is gone anyway
                        pass
