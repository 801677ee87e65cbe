"""What pbp knows of common mail providers: their servers (for `pbp init --provider`)
and their OAuth2 endpoints (for `[oauth] provider`, used by `pbp auth` and the token
refresh). Each value is what the provider publishes for IMAP/SMTP clients."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MailPreset:
    imap_host: str
    imap_port: int
    imap_security: str
    smtp_host: str
    smtp_port: int
    smtp_security: str
    login: str  # "password" (an app password) or an OAuth2 mechanism
    oauth_provider: str  # the [oauth] provider for an OAuth2 login
    advice: str  # one line for the host after `pbp init`


@dataclass(frozen=True)
class OAuthPreset:
    authorization_endpoint: str
    token_endpoint: str
    device_endpoint: str
    scope: str


MAIL_PRESETS: dict[str, MailPreset] = {
    "gmail": MailPreset(
        "imap.gmail.com",
        993,
        "tls",
        "smtp.gmail.com",
        465,
        "tls",
        "xoauth2",
        "google",
        "set [oauth] client_id and client_secret (a Google Cloud OAuth client of type "
        '"Desktop app"), then run `pbp auth`.',
    ),
    "outlook": MailPreset(
        "outlook.office365.com",
        993,
        "tls",
        "smtp.office365.com",
        587,
        "starttls",
        "xoauth2",
        "microsoft",
        "set [oauth] client_id (an Entra ID app registration allowing public "
        "client flows), then run `pbp auth --flow device`.",
    ),
    "fastmail": MailPreset(
        "imap.fastmail.com",
        993,
        "tls",
        "smtp.fastmail.com",
        465,
        "tls",
        "password",
        "generic",
        "set [imap] and [smtp] user to your address and password_file to a file holding "
        "a Fastmail app password.",
    ),
    "custom": MailPreset(
        "mail.example.org",
        993,
        "tls",
        "mail.example.org",
        587,
        "starttls",
        "password",
        "generic",
        "set [imap] and [smtp] host, user and password_file for your server.",
    ),
}

OAUTH_PRESETS: dict[str, OAuthPreset] = {
    "google": OAuthPreset(
        authorization_endpoint="https://accounts.google.com/o/oauth2/v2/auth",
        token_endpoint="https://oauth2.googleapis.com/token",
        device_endpoint="https://oauth2.googleapis.com/device/code",
        scope="https://mail.google.com/",
    ),
    "microsoft": OAuthPreset(
        authorization_endpoint="https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
        token_endpoint="https://login.microsoftonline.com/common/oauth2/v2.0/token",
        device_endpoint="https://login.microsoftonline.com/common/oauth2/v2.0/devicecode",
        scope=(
            "https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send"
            " offline_access"
        ),
    ),
    "generic": OAuthPreset("", "", "", ""),
}
