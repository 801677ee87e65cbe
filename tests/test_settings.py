"""The settings file (docs/design.md: Embedded default): the example
documents every setting with its default, file settings are relative to the file, and the
host's address is read once per load."""

from __future__ import annotations

import configparser
import re

from pbp.release import settings_example
from pbp.settings import ImapSettings, Settings, SmtpSettings, load_settings

EXAMPLE = settings_example()


def documented_keys() -> dict[str, set[str]]:
    """Every `key =` line of the example, set or commented out, per section."""
    keys: dict[str, set[str]] = {}
    section = ""
    for line in EXAMPLE.read_text(encoding="utf-8").splitlines():
        header = re.match(r"^\[(\w+)\]", line)
        if header:
            section = header.group(1)
        setting = re.match(r"^#?\s*(\w+)\s*=", line)
        if setting and section:
            keys.setdefault(section, set()).add(setting.group(1))
    return keys


def test_the_example_documents_every_setting_of_the_mail_loop():
    keys = documented_keys()
    assert {
        "data",
        "transport",
        "from_address",
        "from_name",
        "poll_interval",
        "max_mail_size",
        "replies_per_sender_per_day",
    } <= keys["pbp"]
    mail_server = {"host", "port", "security", "user", "password", "password_file", "ca_file"}
    assert mail_server | {"inbox", "processed", "rejected", "quarantine"} <= keys["imap"]
    assert mail_server <= keys["smtp"]
    assert "modules" in keys["roles"]


def test_every_value_the_example_shows_is_the_default(tmp_path):
    copy = tmp_path / "pbp.ini"
    copy.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    settings = load_settings(str(copy))
    assert settings == Settings(data=tmp_path / "pbp-data", source=copy)
    assert settings.imap == ImapSettings() and settings.smtp == SmtpSettings()


def test_file_settings_are_relative_to_the_settings_file(tmp_path, monkeypatch):
    """ "Relative paths are relative to the folder of this file": the CA files too, so
    `pbp run` started from another folder still finds them."""
    folder = tmp_path / "host"
    folder.mkdir()
    (folder / "imap-password.txt").write_text("secret\n", encoding="utf-8")
    parser = configparser.ConfigParser()
    parser["pbp"] = {"data": "data", "transport": "imap"}
    parser["imap"] = {"password_file": "imap-password.txt", "ca_file": "certs/ca.pem"}
    parser["smtp"] = {"ca_file": str(tmp_path / "elsewhere.pem")}
    with open(folder / "pbp.ini", "w", encoding="utf-8") as handle:
        parser.write(handle)
    monkeypatch.chdir(tmp_path)
    settings = load_settings(str(folder / "pbp.ini"))
    assert settings.data == folder.resolve() / "data"
    assert settings.imap.password == "secret"
    assert settings.imap.ca_file == str(folder.resolve() / "certs" / "ca.pem")
    assert settings.smtp.ca_file == str(tmp_path / "elsewhere.pem")


def test_a_settings_file_pbp_cannot_use_is_one_line(tmp_path, capsys):
    """Errors are one clear line and a non-zero exit: a broken file, a number out of range."""
    from pbp.cli import main

    cases = {
        "[pbp\ndata = x\n": "cannot be read",
        "[pbp]\npoll_interval = 0\n": "poll_interval = '0' is out of range: it must be at least 0.1",
        "[pbp]\nmax_mail_size = -1\n": "max_mail_size = '-1' is out of range",
        "[pbp]\nreplies_per_sender_per_day = many\n": "is not a number",
        "[imap]\nport = 99999\n": "port = '99999' is out of range: it must be from 1 to 65535",
        "[pbp]\ntransport = pigeon\n": "is not one of maildir, imap",
    }
    for text, reason in cases.items():
        settings = tmp_path / "pbp.ini"
        settings.write_text(text, encoding="utf-8")
        assert main(["status", "--settings", str(settings)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and reason in err, (text, err)
    settings.write_text("[pbp]\nreplies_per_sender_per_day = 0\n", encoding="utf-8")
    assert load_settings(str(settings)).replies_per_sender_per_day == 0  # 0: never answer


def test_the_host_address_is_read_once_per_loaded_settings_and_an_edit_counts_from_the_next_load(
    tmp_path,
):
    """The host's address ([forum] host_address) is read with the settings, once per load:
    every inbound mail asks for it, so within one cycle the file is not read again; `pbp run`
    loads its settings anew each cycle, and an edit is used from then on (docs/design.md:
    Public posts)."""
    path = tmp_path / "pbp.ini"
    path.write_text(
        f"[pbp]\ndata = {tmp_path / 'data'}\n\n[forum]\nhost_address = Host@example.org\n"
    )
    first = load_settings(str(path))
    assert first.host_address == "host@example.org"
    path.write_text(
        f"[pbp]\ndata = {tmp_path / 'data'}\n\n[forum]\nhost_address = new-host@example.org\n"
    )
    assert first.host_address == "host@example.org"  # the same cycle: not read again
    assert (
        load_settings(str(path)).host_address == "new-host@example.org"
    )  # the next cycle's settings
    path.write_text(f"[pbp]\ndata = {tmp_path / 'data'}\n")
    assert load_settings(str(path)).host_address == ""  # none set: ""
