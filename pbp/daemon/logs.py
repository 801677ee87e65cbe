"""`pbp run`'s log (docs/design.md: Running pbp as a service): one line per event through
the standard `logging` module, with its time (UTC), level and game id (`game=-` when the
event concerns no one game), at the level `[pbp] log_level` sets.

Every line goes through `LogLineFilter`, on the handler (so the lines of the libraries pbp
uses go through it too): the known secrets (pbp.settings.secret_values) are replaced by
`[secret]`, and a message of several lines (an error's text) becomes one. That is a second
defence: pbp's own events never put a secret in a message in the first place.
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
import sys
import time
from typing import Callable, Iterable

from pbp.settings import Settings
from pbp.settings.secret_values import file_secrets, learned

GAME_NONE = "-"
FORMAT = "%(asctime)s %(levelname)s game=%(game)s %(message)s"
LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}
REDACTED = "[secret]"
BASE64_WORD = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}")

log = logging.getLogger("pbp.run")


def event(level: int, message: str, game: str = GAME_NONE) -> None:
    """One event of `pbp run`, at `level`, about `game`."""
    log.log(level, message, extra={"game": game})


def info(message: str, game: str = GAME_NONE) -> None:
    event(logging.INFO, message, game)


def warning(message: str, game: str = GAME_NONE) -> None:
    event(logging.WARNING, message, game)


def error(message: str, game: str = GAME_NONE) -> None:
    event(logging.ERROR, message, game)


class LogLineFilter(logging.Filter):
    """Cleans each record before it is written: no known secret, one line, a game id."""

    def __init__(self, secrets: Callable[[], Iterable[str]]):
        super().__init__()
        self.secrets = secrets

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if record.exc_info:  # a library's traceback: its last line, on this one
            text += f" ({logging.Formatter().formatException(record.exc_info).splitlines()[-1]})"
            record.exc_info, record.exc_text = None, None
        record.msg, record.args = redact(" | ".join(text.splitlines()), self.secrets()), ()
        if not hasattr(record, "game"):
            record.game = GAME_NONE
        return True


def redact(text: str, secrets: Iterable[str]) -> str:
    """`text` without the secrets, plain or inside a base64 word (a SASL exchange)."""
    known = sorted({secret for secret in secrets if secret}, key=len, reverse=True)  # longer first
    for secret in known:
        text = text.replace(secret, REDACTED)
    return BASE64_WORD.sub(
        lambda word: REDACTED if _holds_secret(word.group(), known) else word.group(), text
    )


def _holds_secret(word: str, secrets: list[str]) -> bool:
    try:
        decoded = base64.b64decode(word + "=" * (-len(word) % 4)).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return False
    return any(secret in decoded for secret in secrets)


class KnownSecrets:
    """The secrets a log line must not show: those of the settings (read again with them,
    at each cycle) and the tokens learned since (pbp.settings.secret_values)."""

    def __init__(self) -> None:
        self.of_settings: set[str] = set()

    def read(self, settings: Settings) -> None:
        self.of_settings = file_secrets(settings.source, settings.refresh_token_path) | {
            settings.imap.password,
            settings.smtp.password,
            settings.oauth.client_secret,
        } - {""}

    def __call__(self) -> set[str]:
        return self.of_settings | learned()


class LogToStdout:
    """While in use, the log's lines go to standard output (the host's terminal, or
    systemd's journal), at the level and without the secrets of the settings last read
    (`follow`)."""

    def __init__(self, settings: Settings):
        self.secrets = KnownSecrets()
        self.handler = logging.StreamHandler(sys.stdout)
        formatter = logging.Formatter(FORMAT, datefmt="%Y-%m-%d %H:%M:%S UTC")
        formatter.converter = time.gmtime
        self.handler.setFormatter(formatter)
        self.handler.addFilter(LogLineFilter(self.secrets))
        self.root = logging.getLogger()
        self.previous_level = self.root.level
        self.follow(settings)

    def follow(self, settings: Settings) -> None:
        self.secrets.read(settings)
        self.root.setLevel(LEVELS.get(settings.log_level, logging.INFO))

    def __enter__(self) -> "LogToStdout":
        self.root.addHandler(self.handler)
        return self

    def __exit__(self, *_: object) -> None:
        self.root.removeHandler(self.handler)
        self.root.setLevel(self.previous_level)
