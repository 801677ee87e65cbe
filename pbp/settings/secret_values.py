"""Every secret this process knows, so that a log line can be cleaned of them
(docs/design.md: Running pbp as a service — no password, token or client secret reaches a
log line).

The settings file's secrets (every key naming a password, a secret, an API key or a token,
given inline or in a `*_file`), the OAuth2 refresh token's file, and the tokens pbp learns
while it runs (access tokens, a rotated refresh token: `remember`)."""

from __future__ import annotations

import configparser
from collections import deque
from pathlib import Path

# Access tokens live an hour: the last few are enough, and the set stays small for weeks.
RUN_TIME_TOKENS = 64
SECRET_WORDS = ("password", "secret", "api_key", "token")

_learned: deque[str] = deque(maxlen=RUN_TIME_TOKENS)


def remember(value: str) -> None:
    """A secret learned at run time (an OAuth2 access or refresh token)."""
    if value and value not in _learned:
        _learned.append(value)


def learned() -> set[str]:
    return set(_learned)


def file_secrets(settings_file: Path | None, refresh_token_file: Path) -> set[str]:
    """The secrets the settings file holds or names, and the stored refresh token."""
    found = {_first_line(refresh_token_file)}
    if settings_file is not None and Path(settings_file).exists():
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read(settings_file, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError):
            parser = configparser.ConfigParser(interpolation=None)
        base = Path(settings_file).resolve().parent
        for section in parser.sections():
            for key, value in parser[section].items():
                if not value.strip() or not any(word in key for word in SECRET_WORDS):
                    continue
                if key.endswith("_file"):
                    named = Path(value.strip()).expanduser()
                    found.add(_first_line(named if named.is_absolute() else base / named))
                else:
                    found.add(value.strip())
    return {value for value in found if value}


def _first_line(path: Path) -> str:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ""
    return lines[0].strip() if lines else ""
