"""The data folder is the host's alone (docs/design.md: Hostile input — "folders 0700, files
0600 (tokens, roles, passwords)"): everything `pbp init`, `pbp new-game` and `pbp poll`
create with the embedded Maildir transport, whatever the umask the host runs them under;
and `pbp status` warns of a settings file with a password that others may read."""

from __future__ import annotations

import os
import stat

import pytest

from pbp.cli import main
from pbp.mail.maildir import deliver

ROSTER = "name,email\n" + "".join(
    f"{n},{n.lower()}@example.org\n" for n in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")
)


@pytest.fixture
def loose_umask():
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def modes(root):
    found = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = os.path.join(folder, name)
            found[os.path.relpath(path, root)] = stat.S_IMODE(os.stat(path).st_mode)
    return found


def test_everything_pbp_creates_is_the_host_s_alone(tmp_path, loose_umask, capsys):
    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", "data"]) == 0
    (tmp_path / "roster.csv").write_text(ROSTER)
    assert (
        main(
            [
                "new-game",
                "--settings",
                str(settings),
                "--ruleset",
                "infiltration",
                "--seed",
                "3",
                "--roster",
                str(tmp_path / "roster.csv"),
                "--id",
                "g1",
            ]
        )
        == 0
    )
    deliver(
        tmp_path / "data" / "mail" / "inbox",
        b"From: stranger@example.net\r\nSubject: hi\r\n\r\nhello\r\n",
    )
    deliver(
        tmp_path / "data" / "mail" / "inbox",
        b"From: alice@example.org\r\nSubject: help\r\n\r\nHELP\r\n",
    )
    assert main(["poll", "--settings", str(settings)]) == 0
    assert stat.S_IMODE(settings.stat().st_mode) == 0o600
    found = modes(tmp_path / "data")
    assert stat.S_IMODE((tmp_path / "data").stat().st_mode) == 0o700
    assert any(name.startswith("games") for name in found) and any(
        name.startswith("spool") for name in found
    )
    assert any(name.startswith("mail") for name in found) and "pbp.lock" in found
    wrong = {
        name: oct(mode)
        for name, mode in found.items()
        if mode != (0o700 if (tmp_path / "data" / name).is_dir() else 0o600)
    }
    assert wrong == {}


def test_status_warns_of_a_password_others_may_read(tmp_path, capsys):
    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", "data"]) == 0
    settings.write_text(settings.read_text().replace("password =", "password = hunter2", 1))
    assert main(["status", "--settings", str(settings)]) == 0
    assert "WARNING" not in capsys.readouterr().out
    settings.chmod(0o644)
    assert main(["status", "--settings", str(settings)]) == 0
    out = capsys.readouterr().out
    assert (
        f"WARNING: {settings} holds a password and others may read it" in out and "chmod 600" in out
    )


def test_files_are_created_private_even_outside_the_command_line(tmp_path, loose_umask):
    """The modes are explicit where secrets are written, not only the command line's umask."""
    from pbp.mail.ingest.spool import Spool
    from pbp.ports import RawMail
    from pbp.storage.datafolder import DataFolder

    with DataFolder(tmp_path / "data") as folder:
        folder.add_game("g1", "infiltration", "now", {"tokens": {"Alice": "secret"}})
        Spool(tmp_path / "data" / "spool").store([RawMail("1:1", b"From: a@b.org\r\n\r\nx", "sha")])
    deliver(tmp_path / "data" / "mail" / "inbox", b"Subject: x\r\n\r\nx\r\n")
    found = modes(tmp_path / "data")
    assert {
        name: oct(mode)
        for name, mode in found.items()
        if mode != (0o700 if (tmp_path / "data" / name).is_dir() else 0o600)
    } == {}
