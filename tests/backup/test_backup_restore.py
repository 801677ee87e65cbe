"""`pbp backup` and `pbp restore` (docs/design.md: Backup, restore and moving a game): a
snapshot laid out again continues the game; a live folder, newer data and hostile
archives are refused, and nothing is written then."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from pbp.durable import WriterLock
from pbp.release import DATA_FORMAT, FORMAT_FILE
from tests.backup.site import Host

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def host(tmp_path) -> Host:
    made = Host(tmp_path / "a")
    made.new_game()
    made.ok("advance", "g1")
    return made


def test_a_restored_backup_continues_the_game(host, tmp_path):
    host.ok("backup", str(tmp_path / "b.tar.gz"))
    twin = Host(tmp_path / "b")
    assert "Restored" in twin.ok("restore", str(tmp_path / "b.tar.gz"))
    restored = twin.files()
    assert restored.pop("game_index.unclean") == b""  # the first writer rebuilds the index
    assert restored == host.files()
    host.ok("advance", "g1")
    twin.ok("advance", "g1")
    assert twin.record()["state"] == host.record()["state"]
    assert twin.record()["resolved"] == host.record()["resolved"] == ["T0-class", "T1-movement"]


def test_the_default_file_name_carries_the_date_and_time(host):
    out = host.ok("backup")
    (written,) = [path.name for path in host.root.glob("pbp-backup-*.tar.gz")]
    assert re.fullmatch(r"pbp-backup-\d{4}-\d\d-\d\dT\d{6}Z\.tar\.gz", written) and written in out


def test_a_backup_waits_its_turn_for_the_lock_and_says_so(host, tmp_path):
    """A held lock (as `pbp run` holds it through a cycle) makes the backup wait, saying
    so once; released, the backup is taken."""
    lock = WriterLock(host.data).acquire()
    backup = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pbp",
            "backup",
            str(tmp_path / "w.tar.gz"),
            "--settings",
            str(host.settings),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert "waiting for the running pbp" in backup.stderr.readline()  # blocks until it waits
        assert not (tmp_path / "w.tar.gz").exists()
    finally:
        lock.release()
    out, _ = backup.communicate(timeout=60)
    assert backup.returncode == 0 and "Backed up" in out
    with tarfile.open(tmp_path / "w.tar.gz") as tar:
        assert {"registry.json", "games/g1.json", "games/g1.journal"} <= set(tar.getnames())
        assert "pbp.lock" not in tar.getnames()


def test_a_backup_is_never_written_over_a_file_or_into_the_data_folder(host, tmp_path):
    (tmp_path / "old.tar.gz").write_bytes(b"keep")
    status, _, err = host.pbp("backup", str(tmp_path / "old.tar.gz"))
    assert (
        status == 2
        and "exists already" in err
        and (tmp_path / "old.tar.gz").read_bytes() == b"keep"
    )
    status, _, err = host.pbp("backup", str(host.data / "x.tar.gz"))
    assert status == 2 and "inside the data folder" in err and not (host.data / "x.tar.gz").exists()


def test_restore_refuses_a_folder_that_holds_games(host, tmp_path):
    host.ok("backup", str(tmp_path / "b.tar.gz"))
    host.ok("advance", "g1")
    before = host.files()
    status, _, err = host.pbp("restore", str(tmp_path / "b.tar.gz"))
    assert status == 2 and "holds games (g1)" in err and "never over a live one" in err
    assert host.files() == before


@pytest.mark.parametrize("lock_name", ["pbp.lock", "run.lock"])
def test_restore_refuses_a_folder_in_use(host, tmp_path, lock_name):
    host.ok("backup", str(tmp_path / "b.tar.gz"))
    target = Host(tmp_path / "b")
    lock = WriterLock(target.data, name=lock_name).acquire()
    try:
        status, _, err = target.pbp("restore", str(tmp_path / "b.tar.gz"))
    finally:
        lock.release()
    assert status == 2 and ("in use by pbp process" in err or "pbp run is running" in err)
    assert not (target.data / "registry.json").exists()


def test_restore_refuses_a_snapshot_of_newer_data(host, tmp_path):
    """A snapshot written by a newer pbp (this pbp refuses to back up such a folder itself,
    so the snapshot's stamp is made newer by hand)."""
    host.ok("backup", str(tmp_path / "b.tar.gz"))
    newer = tmp_path / "newer.tar.gz"
    stamp = json.dumps({"data_format": DATA_FORMAT + 1, "written_by": "9.9"}).encode()
    with tarfile.open(tmp_path / "b.tar.gz") as tar, tarfile.open(newer, "w:gz") as out:
        for member in tar.getmembers():
            if not member.isfile():
                out.addfile(member)
                continue
            data = stamp if member.name == FORMAT_FILE else tar.extractfile(member).read()
            member.size = len(data)
            out.addfile(member, io.BytesIO(data))
    target = Host(tmp_path / "b")
    status, _, err = target.pbp("restore", str(newer))
    assert (
        status == 2
        and f"data format {DATA_FORMAT + 1} (pbp 9.9)" in err
        and f"format {DATA_FORMAT} this" in err
    )
    assert not target.data.exists()


def test_restore_refuses_a_folder_holding_newer_data(host, tmp_path):
    host.ok("backup", str(tmp_path / "b.tar.gz"))
    target = Host(tmp_path / "b")
    target.data.mkdir()
    (target.data / FORMAT_FILE).write_text(
        json.dumps({"data_format": DATA_FORMAT + 1, "written_by": "9.9"})
    )
    status, _, err = target.pbp("restore", str(tmp_path / "b.tar.gz"))
    assert status == 2 and f"holds data format {DATA_FORMAT + 1}" in err
    assert sorted(path.name for path in target.data.iterdir()) == [FORMAT_FILE]


def hostile_archive(path: Path, member: tarfile.TarInfo, data: bytes = b"x") -> Path:
    """A backup-shaped archive (a registry first) with one hostile member."""
    with tarfile.open(path, "w:gz") as tar:
        registry = tarfile.TarInfo("registry.json")
        registry.size = 2
        tar.addfile(registry, io.BytesIO(b"{}"))
        tar.addfile(member, io.BytesIO(data) if member.isfile() else None)
    return path


def _member(name: str, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.size = kind, link, 1 if kind == tarfile.REGTYPE else 0
    return info


HOSTILE = {
    "absolute path": _member("/tmp/pbp-hostile-absolute"),
    "parent folder": _member("../outside.txt"),
    "deep parent folder": _member("games/../../outside.txt"),
    "symbolic link out": _member("games/evil.json", tarfile.SYMTYPE, "/etc/passwd"),
    "hard link out": _member("games/evil.json", tarfile.LNKTYPE, "../../outside.txt"),
    "device": _member("games/dev", tarfile.CHRTYPE),
}


@pytest.mark.parametrize("kind", HOSTILE)
def test_restore_refuses_a_hostile_archive_before_writing_anything(tmp_path, kind):
    archive = hostile_archive(tmp_path / "hostile.tar.gz", HOSTILE[kind])
    target = Host(tmp_path / "site" / "b")
    status, _, err = target.pbp("restore", str(archive))
    assert status == 2 and "is refused" in err and "pbp never writes such archives" in err
    assert not target.data.exists()
    assert (
        not (tmp_path / "site" / "outside.txt").exists()
        and not Path("/tmp/pbp-hostile-absolute").exists()
    )


def test_restore_refuses_what_is_no_backup(tmp_path):
    (tmp_path / "junk.tar.gz").write_bytes(b"not an archive")
    target = Host(tmp_path / "b")
    status, _, err = target.pbp("restore", str(tmp_path / "junk.tar.gz"))
    assert status == 2 and "is not an archive pbp wrote" in err and not target.data.exists()
