"""`pbp export` and `pbp import` (docs/design.md: Backup, restore and moving a game): a game
moved to another data folder goes on there as it would have at home; a taken id, newer
data and a hostile archive are refused with nothing written."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from pbp.release import DATA_FORMAT, FORMAT_FILE
from tests.backup.site import Host

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def home(tmp_path) -> Host:
    made = Host(tmp_path / "home")
    made.new_game()
    made.ok("advance", "g1")
    made.new_game("g2")  # a game that stays at home
    return made


def reports(host: Host, phase: str) -> list[tuple[str, str, str]]:
    return sorted(
        (row["recipient"], row["subject"], row["body"])
        for row in host.outbox()
        if row["kind"] == "report" and row["phase"] == phase
    )


def test_an_exported_game_goes_on_in_another_folder(home, tmp_path):
    assert "Exported game g1" in home.ok("export", "g1", str(tmp_path / "g1.tar.gz"))
    with tarfile.open(tmp_path / "g1.tar.gz") as tar:
        assert tar.getnames() == [
            "pbp-export.json",
            "games/g1.journal",
            "games/g1.json",
            "games/g1.texts",
        ]
    away = Host(tmp_path / "away")
    away.new_game("w1")  # a folder with a game of its own
    assert "Imported game g1" in away.ok("import", str(tmp_path / "g1.tar.gz"))
    assert away.files()["games/g1.journal"] == home.files()["games/g1.journal"]
    registry = json.loads((away.data / "registry.json").read_text())
    assert sorted(row["id"] for row in registry["games"].values()) == ["g1", "w1"]
    assert "Game g1" in away.ok("status", "g1")
    home.ok("advance", "g1")
    away.ok("advance", "g1")
    assert away.record()["state"] == home.record()["state"]
    assert away.record()["resolved"] == ["T0-class", "T1-movement"]
    assert [r[:2] for r in reports(away, "T1-movement")] == [
        r[:2] for r in reports(home, "T1-movement")
    ]


def test_an_export_of_an_unknown_game_names_the_games(home, tmp_path):
    status, _, err = home.pbp("export", "nope", str(tmp_path / "x.tar.gz"))
    assert status == 2 and "There is no game 'nope'; the games are: g1, g2." in err
    assert not (tmp_path / "x.tar.gz").exists()


def test_a_taken_game_id_is_refused(home, tmp_path):
    home.ok("export", "g1", str(tmp_path / "g1.tar.gz"))
    away = Host(tmp_path / "away")
    away.new_game("g1")
    before = away.files()
    status, _, err = away.pbp("import", str(tmp_path / "g1.tar.gz"))
    assert status == 2 and "A game called 'g1' exists already" in err
    assert away.files() == before


def test_newer_data_is_refused(home, tmp_path):
    """An export written by a newer pbp (this pbp refuses to export from such a folder
    itself, so its manifest is made newer by hand)."""
    home.ok("export", "g1", str(tmp_path / "g1.tar.gz"))
    newer = _tamper(
        tmp_path / "g1.tar.gz",
        tmp_path / "newer.tar.gz",
        manifest={"data_format": DATA_FORMAT + 1, "written_by": "9.9"},
    )
    away = Host(tmp_path / "away")
    away.new_game("w1")
    before = away.files()
    status, _, err = away.pbp("import", str(newer))
    assert (
        status == 2
        and f"holds data format {DATA_FORMAT + 1}" in err
        and f"format {DATA_FORMAT} this" in err
    )
    assert away.files() == before


def _tamper(
    source: Path, target: Path, extra: tarfile.TarInfo | None = None, manifest: dict | None = None
) -> Path:
    """A copy of an export with its manifest changed or one member added."""
    with tarfile.open(source) as tar, tarfile.open(target, "w:gz") as out:
        for member in tar.getmembers():
            data = tar.extractfile(member).read()
            if member.name == "pbp-export.json" and manifest is not None:
                data = json.dumps({**json.loads(data), **manifest}).encode()
                member.size = len(data)
            out.addfile(member, io.BytesIO(data))
        if extra is not None:
            out.addfile(extra, io.BytesIO(b"x" * extra.size))
    return target


def _file(name: str) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size = 1
    return info


def _link(name: str, target: str) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = tarfile.SYMTYPE, target
    return info


TAMPERED = {
    "a path out of the folder": {"extra": _file("../../outside.txt")},
    "a link out": {"extra": _link("games/g1.extra", "/etc/passwd")},
    "another game's file": {"extra": _file("games/w1.json")},
    "the registry": {"extra": _file("registry.json")},
    "rows of another game": {
        "manifest": {"rows": {"games": [{"id": "w1", "ruleset": "infiltration"}]}}
    },
    "an id that is a path": {"manifest": {"game": "../g1"}},
}


@pytest.mark.parametrize("kind", TAMPERED)
def test_a_hostile_export_is_refused_with_nothing_written(home, tmp_path, kind):
    home.ok("export", "g1", str(tmp_path / "g1.tar.gz"))
    archive = _tamper(tmp_path / "g1.tar.gz", tmp_path / "bad.tar.gz", **TAMPERED[kind])
    away = Host(tmp_path / "site" / "away")
    away.new_game("w1")
    before = away.files()
    status, _, err = away.pbp("import", str(archive))
    assert status == 2 and ("is refused" in err or "manifest does not match" in err), err
    assert away.files() == before
    assert (
        not (tmp_path / "outside.txt").exists() and not (tmp_path / "site" / "outside.txt").exists()
    )


def test_a_backup_is_no_export_and_an_export_no_backup(home, tmp_path):
    home.ok("backup", str(tmp_path / "b.tar.gz"))
    home.ok("export", "g1", str(tmp_path / "g1.tar.gz"))
    away = Host(tmp_path / "away")
    status, _, err = away.pbp("import", str(tmp_path / "b.tar.gz"))
    assert status == 2 and "`pbp restore`" in err
    status, _, err = away.pbp("restore", str(tmp_path / "g1.tar.gz"))
    assert status == 2 and "`pbp import`" in err


def test_a_game_open_for_sign_ups_moves_too(home, tmp_path):
    home.ok("open-game", "s1", "--ruleset", "infiltration", "--players", "5..8", "--closes", "48h")
    home.ok("export", "s1", str(tmp_path / "s1.tar.gz"))
    away = Host(tmp_path / "away")
    away.ok("import", str(tmp_path / "s1.tar.gz"))
    assert away.files()["signups/s1.json"] == home.files()["signups/s1.json"]
    assert "Sign-ups for s1" in away.ok("status")
