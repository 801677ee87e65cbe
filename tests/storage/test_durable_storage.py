"""Storage (docs/design.md: Reliability rules, Storage): atomic TinyDB files, transactions that
commit in one write or not at all, and one writer per data folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from tinydb import TinyDB

from pbp.errors import UserError
from pbp.durable import AtomicJSONStorage, WriterLock
from pbp.storage.datafolder import DataFolder


def test_each_write_replaces_the_file_whole(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    db = TinyDB(path, storage=AtomicJSONStorage)
    db.table("orders").insert({"player": "Alice"})
    replaced = []
    real_replace = os.replace
    monkeypatch.setattr(
        os, "replace", lambda a, b: (replaced.append((str(a), str(b))), real_replace(a, b))
    )
    db.table("orders").insert({"player": "Bruno"})
    assert replaced == [(str(tmp_path / ".game.json.tmp"), str(path))]
    assert [r["player"] for r in json.loads(path.read_text())["orders"].values()] == [
        "Alice",
        "Bruno",
    ]


def test_a_failed_write_leaves_the_old_version(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    db = TinyDB(path, storage=AtomicJSONStorage)
    db.table("orders").insert({"player": "Alice"})
    before = path.read_bytes()

    def power_cut(*_):
        raise OSError("disk gone")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(OSError):
        db.table("orders").insert({"player": "Bruno"})
    assert path.read_bytes() == before


def test_a_transaction_is_one_write_and_an_error_discards_it(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    db = TinyDB(path, storage=AtomicJSONStorage)
    writes = []
    real = AtomicJSONStorage._write_now
    monkeypatch.setattr(
        AtomicJSONStorage, "_write_now", lambda self, data: (writes.append(1), real(self, data))
    )
    with db.storage.transaction():
        db.table("orders").insert({"player": "Alice"})
        db.table("outbox").insert({"kind": "receipt"})
        db.table("mails").insert({"key": "1"})
    assert len(writes) == 1
    with pytest.raises(RuntimeError):
        with db.storage.transaction():
            db.table("orders").insert({"player": "Bruno"})
            raise RuntimeError("engine failed")
    assert len(writes) == 1
    assert sorted(json.loads(path.read_text())) == ["mails", "orders", "outbox"]
    assert len(json.loads(path.read_text())["orders"]) == 1


def test_a_second_writer_gets_a_clear_error(tmp_path):
    with DataFolder(tmp_path / "data"):
        with pytest.raises(UserError, match="in use by pbp process"):
            DataFolder(tmp_path / "data")


def test_a_killed_writer_leaves_no_stale_lock(tmp_path):
    code = (
        "import os, signal, sys; from pbp.durable import WriterLock; from pathlib import Path; "
        "WriterLock(Path(sys.argv[1])).acquire(); os.kill(os.getpid(), signal.SIGKILL)"
    )
    subprocess.run([sys.executable, "-c", code, str(tmp_path)])
    with WriterLock(tmp_path):
        assert (tmp_path / "pbp.lock").read_text() == str(os.getpid())


def test_a_second_writer_process_is_refused_with_one_line(tmp_path):
    with WriterLock(tmp_path / "data"):
        done = subprocess.run(
            [sys.executable, "-m", "pbp", "poll", "--data", str(tmp_path / "data")],
            capture_output=True,
            text=True,
            env={**os.environ, "PBP_LOCK_WAIT": "0"},
        )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "in use by pbp process" in done.stderr
