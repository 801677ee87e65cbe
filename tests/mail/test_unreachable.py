"""`pbp poll` when the mailbox cannot be read at all (docs/design.md: Command line — "Errors
are one clear line and a non-zero exit, never a traceback"): a server that is down, a
password the real Dovecot refuses."""

from __future__ import annotations

from tests.fixtures.mailserver import free_port
from tests.fixtures.harness import write_settings
from pbp.cli import main


def unreachable_settings(folder, host: str, port: int, user: str, password: str):
    return write_settings(
        folder / "pbp.ini",
        {
            "pbp": {"data": "data", "transport": "imap"},
            "imap": {
                "host": host,
                "port": port,
                "security": "none",
                "user": user,
                "password": password,
            },
            "smtp": {"host": host, "port": port, "security": "none"},
        },
    )


def poll_error(settings, capsys) -> str:
    capsys.readouterr()
    assert main(["poll", "--settings", str(settings)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_a_mail_server_that_is_down_is_one_line(tmp_path, capsys):
    port = free_port()  # nothing listens there
    err = poll_error(
        unreachable_settings(tmp_path, "127.0.0.1", port, "pbp@example.org", "x"), capsys
    )
    assert (
        f"Cannot read mail from the IMAP server 127.0.0.1:{port}" in err and "check [imap]" in err
    )


def test_a_refused_login_is_one_line(tmp_path, capsys, mail_server):
    user = mail_server.add_user(mail_server.new_address("pbp"))
    err = poll_error(
        unreachable_settings(tmp_path, mail_server.host, mail_server.imap_port, user, "wrong"),
        capsys,
    )
    assert f"user {user}" in err and "auth" in err.lower()
