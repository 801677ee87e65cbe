"""The host's settings file (docs/design.md: Embedded default; templates/settings.example.ini
documents every key).

Where it is: `--settings PATH`, else `$PBP_SETTINGS`, else `./pbp.ini`. Relative paths
inside it are relative to the file's folder.
"""

from __future__ import annotations

import configparser
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, cast

from pbp.errors import UserError
from pbp.settings.providers import OAUTH_PRESETS
from pbp.settings.values import (
    choice as _choice,
    language as _language,
    number as _number,
    zone as _zone,
)

DEFAULT_SETTINGS_NAME = "pbp.ini"
TRANSPORTS = ("maildir", "imap")
SECURITY = ("tls", "starttls", "none")
Security = Literal["tls", "starttls", "none"]  # how a connection is secured (SECURITY)
# How pbp logs in to the IMAP and SMTP servers: a password, or an OAuth2 access token
# (pbp.mail.sign_in.oauth) sent with the SASL mechanism XOAUTH2 or OAUTHBEARER.
LOGINS = ("password", "xoauth2", "oauthbearer")
LOG_LEVELS = ("debug", "info", "warning", "error")
# Default seconds between two IDLE commands: servers may end an IDLE after 30 minutes
# (RFC 2177), so pbp ends and re-issues it well before.
IDLE_RENEW_SECONDS = 25 * 60
# A poll finding this many new mails reads them in a second process (pbp.mail.ingest.read_ahead).
READ_AHEAD_FROM = 200


@dataclass(frozen=True)
class ImapSettings:
    host: str = "127.0.0.1"
    port: int = 993
    security: Security = "tls"
    user: str = ""
    password: str = ""
    ca_file: str = ""
    login: str = "password"
    idle: bool = True
    idle_renew: float = IDLE_RENEW_SECONDS
    read_ahead_from: int = READ_AHEAD_FROM
    inbox: str = "INBOX"
    processed: str = "processed"
    rejected: str = "rejected"
    quarantine: str = "quarantine"


@dataclass(frozen=True)
class SmtpSettings:
    host: str = "127.0.0.1"
    port: int = 587
    security: Security = "starttls"
    user: str = ""
    password: str = ""
    ca_file: str = ""
    login: str = "password"


@dataclass(frozen=True)
class OAuthSettings:
    """The OAuth2 client pbp is for the mail provider (`pbp auth` gets its refresh token)."""

    provider: str = "generic"
    authorization_endpoint: str = ""
    token_endpoint: str = ""
    device_endpoint: str = ""
    client_id: str = ""
    client_secret: str = ""
    scope: str = ""
    refresh_token_file: str = ""


@dataclass(frozen=True)
class Settings:
    data: Path
    transport: str = "maildir"
    from_address: str = "pbp@localhost"
    from_name: str = "pbp moderator"
    poll_interval: float = 60.0
    max_mail_size: int = 1_000_000
    replies_per_sender_per_day: int = 50
    wrong_tokens_per_sender_per_day: int = 10
    imap: ImapSettings = field(default_factory=ImapSettings)
    smtp: SmtpSettings = field(default_factory=SmtpSettings)
    oauth: OAuthSettings = field(default_factory=OAuthSettings)
    # The receiving server's authserv-id: when set, its Authentication-Results header
    # must show the From domain authenticated (pbp.mail.sender_auth); "" is off.
    trusted_authserv_id: str = ""
    # The host's address (`[forum] host_address`): where NPC mail, drafts and notices for the
    # host go, and the address whose mail is the host's; "" is none.
    host_address: str = ""
    role_modules: tuple[str, ...] = ()
    source: Path | None = None
    log_level: str = "info"  # of `pbp run`'s log (pbp.daemon.logs): LOG_LEVELS
    # The host's IANA time zone: the desk (`pbp web`) shows times in it beside UTC.
    host_timezone: str = ""
    # The language the host reads: the host's mail and the desk (docs/design.md: Each
    # reader's language).
    host_language: str = "en"

    # The embedded transport's folders (stdlib Maildir) under the data folder.
    @property
    def maildir_root(self) -> Path:
        return self.data / "mail"

    @property
    def refresh_token_path(self) -> Path:
        """Where the OAuth2 refresh token is kept (a 0600 file; default in the data folder)."""
        return (
            Path(self.oauth.refresh_token_file)
            if self.oauth.refresh_token_file
            else self.data / "oauth-refresh-token"
        )


def settings_path(explicit: str | None = None) -> Path:
    """--settings, else $PBP_SETTINGS, else ./pbp.ini."""
    if explicit:
        return Path(explicit)
    if os.environ.get("PBP_SETTINGS"):
        return Path(os.environ["PBP_SETTINGS"])
    return Path.cwd() / DEFAULT_SETTINGS_NAME


def _secret(section: configparser.SectionProxy, base: Path, name: str) -> str:
    """A password given inline or in a file named by `<name>_file` (first line)."""
    path = section.get(f"{name}_file", "").strip()
    if path:
        file = (base / path) if not Path(path).is_absolute() else Path(path)
        try:
            return file.read_text(encoding="utf-8").splitlines()[0].strip()
        except (OSError, IndexError):
            raise UserError(
                f"Cannot read the {section.name} {name} from {file}; "
                "check that the file exists and holds the password on its first line."
            ) from None
    return section.get(name, "")


def _path(section: configparser.SectionProxy, base: Path, key: str) -> str:
    """A file setting, relative to the settings file's folder unless absolute; "" stays ""."""
    value = section.get(key, "").strip()
    if not value:
        return ""
    path = Path(value).expanduser()
    return str(path if path.is_absolute() else base / path)


def load_settings(explicit: str | None = None, data_override: str | None = None) -> Settings:
    """Read the settings file; with no file, `--data` alone makes embedded-default settings."""
    path: Path | None = settings_path(explicit)
    parser = configparser.ConfigParser(interpolation=None)
    if path is not None and path.exists():
        try:
            parser.read(path, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError) as error:
            problem = str(error).splitlines()[0].rstrip(".")
            raise UserError(
                f"The settings file {path} cannot be read ({problem}); fix it, or write a new one "
                "with `pbp init --force`."
            ) from None
        base = path.resolve().parent
    elif data_override:
        base = Path.cwd()
        path = None
    else:
        raise UserError(
            f"No settings file at {settings_path(explicit)}; run `pbp init` first "
            "or name one with --settings / PBP_SETTINGS."
        )
    for name in ("pbp", "imap", "smtp", "roles", "oauth", "forum"):
        if not parser.has_section(name):
            parser.add_section(name)
    main, imap, smtp, roles, oauth = (
        parser[name] for name in ("pbp", "imap", "smtp", "roles", "oauth")
    )
    data = Path(data_override or str(main.get("data", "pbp-data")))
    if not data.is_absolute():
        data = base / data
    transport = _choice(main, "transport", "maildir", TRANSPORTS)
    modules = tuple(
        m.strip() for m in roles.get("modules", "").replace("\n", ",").split(",") if m.strip()
    )
    return Settings(
        data=data,
        transport=transport,
        from_address=main.get("from_address", "pbp@localhost").strip(),
        from_name=main.get("from_name", "pbp moderator").strip(),
        poll_interval=_number(main, "poll_interval", 60.0, float, least=0.1),
        max_mail_size=_number(main, "max_mail_size", 1_000_000, int),
        replies_per_sender_per_day=_number(main, "replies_per_sender_per_day", 50, int, least=0),
        wrong_tokens_per_sender_per_day=_number(
            main, "wrong_tokens_per_sender_per_day", 10, int, least=1
        ),
        imap=ImapSettings(
            host=imap.get("host", "127.0.0.1").strip(),
            port=_number(imap, "port", 993, int, most=65535),
            security=cast(Security, _choice(imap, "security", "tls", SECURITY)),
            user=imap.get("user", "").strip(),
            password=_secret(imap, base, "password"),
            ca_file=_path(imap, base, "ca_file"),
            login=_choice(imap, "login", "password", LOGINS),
            idle=_choice(imap, "idle", "on", ("on", "off")) == "on",
            idle_renew=_number(
                imap, "idle_renew", float(IDLE_RENEW_SECONDS), float, least=1, most=29 * 60
            ),
            read_ahead_from=_number(imap, "read_ahead_from", READ_AHEAD_FROM, int, least=0),
            inbox=imap.get("inbox", "INBOX").strip(),
            processed=imap.get("processed", "processed").strip(),
            rejected=imap.get("rejected", "rejected").strip(),
            quarantine=imap.get("quarantine", "quarantine").strip(),
        ),
        smtp=SmtpSettings(
            host=smtp.get("host", "127.0.0.1").strip(),
            port=_number(smtp, "port", 587, int, most=65535),
            security=cast(Security, _choice(smtp, "security", "starttls", SECURITY)),
            user=smtp.get("user", "").strip(),
            password=_secret(smtp, base, "password"),
            ca_file=_path(smtp, base, "ca_file"),
            login=_choice(smtp, "login", "password", LOGINS),
        ),
        oauth=_oauth(oauth, base),
        trusted_authserv_id=main.get("trusted_authserv_id", "").strip(),
        host_address=parser["forum"].get("host_address", "").strip().lower(),
        role_modules=modules,
        source=path,
        log_level=_choice(main, "log_level", "info", LOG_LEVELS),
        host_timezone=_zone(main, "host_timezone"),
        host_language=_language(main, "host_language"),
    )


def _oauth(section: configparser.SectionProxy, base: Path) -> OAuthSettings:
    """The [oauth] section; endpoints and scope left empty come from the provider's preset."""
    provider = _choice(section, "provider", "generic", tuple(OAUTH_PRESETS))
    preset = OAUTH_PRESETS[provider]

    def given(key: str) -> str:
        return section.get(key, "").strip() or str(getattr(preset, key))

    return OAuthSettings(
        provider=provider,
        authorization_endpoint=given("authorization_endpoint"),
        token_endpoint=given("token_endpoint"),
        device_endpoint=given("device_endpoint"),
        client_id=section.get("client_id", "").strip(),
        client_secret=_secret(section, base, "client_secret"),
        scope=given("scope"),
        refresh_token_file=_path(section, base, "refresh_token_file"),
    )


def secrets_readable_by_others(path: Path | None) -> list[Path]:
    """The settings file, when it holds a password or secret, and the files its
    `*_file` settings name for one, that the group or others may read (docs/design.md: Hostile
    input — the data folder and the passwords are the host's alone)."""
    if path is None or not Path(path).exists():
        return []
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return []
    base = Path(path).resolve().parent
    holders: list[Path] = []
    for section in parser.sections():
        for key, value in parser[section].items():
            if not value.strip() or not any(word in key for word in ("password", "secret")):
                continue
            named = Path(value.strip()) if key.endswith("_file") else Path(path)
            holder = named if named.is_absolute() else base / named
            if holder not in holders:
                holders.append(holder)
    return [holder for holder in holders if holder.exists() and holder.stat().st_mode & 0o077]
