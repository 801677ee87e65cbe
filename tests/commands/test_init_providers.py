"""`pbp init --provider NAME` fills in a mail provider's servers, ports, TLS mode and login
(pbp.settings.providers); the file it writes loads as those settings."""

from __future__ import annotations

import pytest

from pbp import cli
from pbp.settings.providers import MAIL_PRESETS
from pbp.settings import load_settings

EXPECTED = {
    "gmail": ("imap.gmail.com", 993, "tls", "smtp.gmail.com", 465, "tls", "xoauth2", "google"),
    "outlook": (
        "outlook.office365.com",
        993,
        "tls",
        "smtp.office365.com",
        587,
        "starttls",
        "xoauth2",
        "microsoft",
    ),
    "fastmail": (
        "imap.fastmail.com",
        993,
        "tls",
        "smtp.fastmail.com",
        465,
        "tls",
        "password",
        "generic",
    ),
    "custom": (
        "mail.example.org",
        993,
        "tls",
        "mail.example.org",
        587,
        "starttls",
        "password",
        "generic",
    ),
}


@pytest.mark.parametrize("provider", sorted(MAIL_PRESETS))
def test_init_with_a_provider_writes_its_servers(tmp_path, provider, capsys):
    path = tmp_path / "pbp.ini"
    assert (
        cli.main(["init", "--settings", str(path), "--data", "data", "--provider", provider]) == 0
    )
    settings = load_settings(str(path))
    imap, smtp = settings.imap, settings.smtp
    found = (
        imap.host,
        imap.port,
        imap.security,
        smtp.host,
        smtp.port,
        smtp.security,
        imap.login,
        settings.oauth.provider,
    )
    assert found == EXPECTED[provider]
    assert settings.transport == "imap" and smtp.login == imap.login
    assert settings.data == tmp_path / "data"
    assert f"Mail: {provider} over IMAP" in capsys.readouterr().out


def test_google_and_microsoft_presets_fill_the_oauth_endpoints(tmp_path):
    path = tmp_path / "pbp.ini"
    cli.main(["init", "--settings", str(path), "--provider", "outlook"])
    oauth = load_settings(str(path)).oauth
    assert oauth.token_endpoint == "https://login.microsoftonline.com/common/oauth2/v2.0/token"
    assert "offline_access" in oauth.scope and oauth.device_endpoint.endswith("/devicecode")


def test_init_without_a_provider_keeps_the_embedded_default_and_the_new_settings_are_off(tmp_path):
    path = tmp_path / "pbp.ini"
    cli.main(["init", "--settings", str(path)])
    settings = load_settings(str(path))
    assert settings.transport == "maildir"
    assert settings.trusted_authserv_id == ""
    assert (settings.imap.login, settings.smtp.login, settings.imap.idle) == (
        "password",
        "password",
        True,
    )


def test_an_unknown_provider_is_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["init", "--settings", str(tmp_path / "pbp.ini"), "--provider", "aol"])
    assert stop.value.code == 2
    assert "'aol' is not known. Choose from gmail" in capsys.readouterr().err
