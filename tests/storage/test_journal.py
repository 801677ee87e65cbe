"""A game's journal (docs/design.md: Storage; pbp.storage.journal): what only grows leaves the game
document, a commit is all or nothing across both files, and game files of the old format
still load."""

from __future__ import annotations

import json
import os

import pytest

from pbp.storage import document_storage, game_storage
from pbp.storage.datafolder import DataFolder
from pbp.storage.game_storage import game_tables


def new_game(tmp_path, game_id: str = "g1"):
    folder = DataFolder(tmp_path, writer=True)
    game = folder.add_game(
        game_id,
        "infiltration",
        "2026-01-01T00:00:00Z",
        {"id": game_id, "phase_id": "T1"},
        lambda file: file.outbox.insert({"kind": "welcome", "body": "Hello", "status": "queued"}),
    )
    return folder, game


def paths(tmp_path, game_id: str = "g1"):
    games = tmp_path / "games"
    return games / f"{game_id}.json", games / f"{game_id}.journal"


def test_mail_bodies_live_in_the_journal_not_in_the_document(tmp_path):
    folder, game = new_game(tmp_path)
    with game.transaction():
        game.update_record({"phase_id": "T2"})
        game.outbox.insert({"kind": "report", "body": "x" * 10_000, "status": "queued"})
        game.orders.insert({"phase": "T1", "player": "Alice", "text": "MOVE 1A"})
    folder.close()
    document, journal = paths(tmp_path)
    assert "outbox" not in json.loads(document.read_text()) and len(document.read_bytes()) < 2_000
    assert journal.stat().st_size < 2_000 and document.with_suffix(".texts").stat().st_size > 10_000
    tables = game_tables(document)
    assert [row["kind"] for row in tables["outbox"].values()] == ["welcome", "report"]
    assert tables["game"]["1"]["phase_id"] == "T2" and len(tables["orders"]) == 1


def test_a_commit_of_journaled_tables_alone_appends_and_leaves_the_document(tmp_path):
    folder, game = new_game(tmp_path)
    document, journal = paths(tmp_path)
    before, size = document.stat().st_ino, journal.stat().st_size
    with game.transaction():
        game.outbox.update({"status": "sent"}, doc_ids=[1])
    assert document.stat().st_ino == before and journal.stat().st_size > size
    folder.close()
    assert game_tables(document)["outbox"]["1"]["status"] == "sent"


def test_a_crash_between_the_journal_and_the_document_leaves_the_old_state(tmp_path, monkeypatch):
    """The journal's line is written first; if the document never follows, the commit
    never happened: a reader ignores the line and the next writer cuts it off."""
    folder, game = new_game(tmp_path)
    document, journal = paths(tmp_path)
    size = journal.stat().st_size

    def power_cut(*_):
        raise OSError("power cut")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(OSError):
        with game.transaction():
            game.update_record({"phase_id": "T2"})
            game.outbox.insert(
                {"kind": "report", "body": "the new phase's report", "status": "queued"}
            )
    monkeypatch.undo()
    folder.close()
    assert journal.stat().st_size > size  # the line is there, its document is not
    tables = game_tables(document)
    assert tables["game"]["1"]["phase_id"] == "T1" and len(tables["outbox"]) == 1

    with DataFolder(tmp_path, writer=True) as folder:
        game = folder.game("g1")
        game.outbox.insert({"kind": "receipt", "body": "later", "status": "queued"})
    assert [row["kind"] for row in game_tables(document)["outbox"].values()] == [
        "welcome",
        "receipt",
    ]


def test_a_torn_append_is_cut_off(tmp_path):
    folder, game = new_game(tmp_path)
    folder.close()
    document, journal = paths(tmp_path)
    with open(journal, "ab") as handle:
        handle.write(b'{"v":1,"ops":[["i","outbox",2,{"kind":"rep')  # the crash came mid-append
    assert len(game_tables(document)["outbox"]) == 1
    with DataFolder(tmp_path, writer=True) as folder:
        folder.game("g1").outbox.insert(
            {"kind": "receipt", "body": "after the crash", "status": "queued"}
        )
    assert [row["kind"] for row in game_tables(document)["outbox"].values()] == [
        "welcome",
        "receipt",
    ]


def test_a_discarded_transaction_leaves_nothing_in_memory_or_on_disk(tmp_path):
    folder, game = new_game(tmp_path)
    with pytest.raises(RuntimeError):
        with game.transaction():
            game.orders.insert({"phase": "T1", "player": "Alice", "text": "MOVE 1A"})
            raise RuntimeError("the engine failed")
    assert len(game.orders) == 0
    folder.close()
    assert "orders" not in game_tables(paths(tmp_path)[0])


def test_a_game_file_of_the_old_format_loads_and_moves_into_the_journal_on_the_first_write(
    tmp_path,
):
    """A game file written before the journal: every table in the one document."""
    DataFolder(tmp_path, writer=True).close()
    (tmp_path / "registry.json").write_text(
        json.dumps(
            {
                "games": {
                    "1": {"id": "old", "ruleset": "infiltration", "created": "2025-01-01T00:00:00Z"}
                }
            }
        )
    )
    document, journal = paths(tmp_path, "old")
    old = {
        "game": {"1": {"id": "old", "phase_id": "T3", "outbox_sequence": 2}},
        "outbox": {
            "1": {"kind": "welcome", "body": "Hi", "status": "sent"},
            "2": {"kind": "report", "body": "T2 report", "status": "queued"},
        },
        "orders": {"1": {"phase": "T2", "player": "Alice", "text": "MOVE 2B"}},
        "mails": {"1": {"key": "1:7", "sha256": "ab", "outcome": "processed"}},
        "replies": {"1": {"sender": "alice@example.org", "day": "2025-01-02", "count": 1}},
    }
    document.write_text(json.dumps(old))

    with DataFolder(tmp_path, writer=False) as reader:  # a reader leaves the file as it is
        game = reader.game("old")
        assert [row["body"] for row in game.outbox.all()] == ["Hi", "T2 report"]
        assert game.mails.all()[0]["key"] == "1:7" and game.record()["phase_id"] == "T3"
    assert json.loads(document.read_text()) == old and not journal.exists()

    with DataFolder(tmp_path, writer=True) as folder:
        game = folder.game("old")
        game.update_record({"phase_id": "T4"})
        game.outbox.update({"status": "sent"}, doc_ids=[2])
    stored = json.loads(document.read_text())
    assert not {"outbox", "orders", "mails", "replies"} & set(stored)
    tables = game_tables(document)
    assert tables["game"]["1"]["phase_id"] == "T4"
    assert tables["outbox"] == {
        "1": old["outbox"]["1"],
        "2": {**old["outbox"]["2"], "status": "sent"},
    }
    assert tables["orders"] == old["orders"] and tables["mails"] == old["mails"]
    assert tables["replies"] == old["replies"]


def test_a_later_writer_of_the_same_process_reads_only_what_was_appended_since(tmp_path):
    """`pbp run` opens the data folder for each cycle: the journal replayed by one cycle is
    handed to the next, which reads only the lines another process appended meanwhile."""
    folder, game = new_game(tmp_path)
    folder.close()  # this cycle's replay is kept
    document, journal = paths(tmp_path)
    kept = game_storage._replayed.pop(journal)
    with DataFolder(tmp_path, writer=True) as other:  # as a host command in its own process would
        other.game("g1").orders.insert({"phase": "T1", "player": "Alice", "text": "MOVE 1A"})
    game_storage._replayed[journal] = kept
    with DataFolder(tmp_path, writer=True) as folder:
        game = folder.game("g1")
        assert [row["text"] for row in game.orders.all()] == ["MOVE 1A"]
        assert [row["body"] for row in game.outbox.all()] == ["Hello"]
        game.outbox.update({"status": "sent"}, doc_ids=[1])
    assert game_tables(document)["outbox"]["1"]["status"] == "sent"


def test_the_registry_is_handed_to_the_next_writer_unless_another_process_wrote_it(tmp_path):
    """An idle cycle of `pbp run` parses no registry: the one the previous cycle closed is
    handed on. A registry another process replaced meanwhile (a new game) is read again."""
    folder, _game = new_game(tmp_path)
    folder.close()
    registry = tmp_path / "registry.json"
    handed = document_storage._documents[registry][1]
    with DataFolder(tmp_path, writer=True) as folder:
        assert folder.registry.storage.read() is handed
        assert folder.game_ids() == ["g1"]
    kept = document_storage._documents.pop(registry)
    with DataFolder(tmp_path, writer=True) as other:  # as `pbp new-game` in its own process would
        other.add_game(
            "g2", "infiltration", "2030-01-01T00:00:00+00:00", {"id": "g2", "roster": []}
        )
    document_storage._documents[registry] = kept
    with DataFolder(tmp_path, writer=True) as folder:
        assert folder.registry.storage.read() is not kept[1]
        assert folder.game_ids() == ["g1", "g2"]


def test_a_sync_that_failed_is_raised_before_the_next_line_and_the_journal_goes_on(
    tmp_path, monkeypatch
):
    """The outbox's marks are synced on a helper thread (GameFile.syncing_in) through one
    descriptor kept open; a failed sync is raised to whoever waits for it (the outbox,
    before its next mail), the tables are read again from the file, and the commit after
    that writes on a fresh descriptor."""
    from concurrent.futures import ThreadPoolExecutor

    from pbp.storage import journal

    folder, game = new_game(tmp_path)
    real_sync, failures = os.fdatasync, [OSError(5, "Input/output error")]

    def flaky_sync(fd):
        if failures:
            raise failures.pop()
        real_sync(fd)

    with ThreadPoolExecutor(max_workers=1) as syncer, game.syncing_in(syncer) as settle:
        monkeypatch.setattr(journal.os, "fdatasync", flaky_sync)
        with game.transaction():
            game.outbox.update({"status": "sent"}, doc_ids=[1])
        with pytest.raises(OSError, match="Input/output"):
            settle()
        with game.transaction():
            game.outbox.update({"status": "failed"}, doc_ids=[1])
    folder.close()
    assert game_tables(paths(tmp_path)[0])["outbox"]["1"]["status"] == "failed"
