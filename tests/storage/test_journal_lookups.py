"""The journal's lookups (pbp.storage.journal.LOOKUPS): the rows a field's value finds are always
the rows a scan of the whole table finds, however the rows were inserted and updated,
in memory, after a replay from the disk, after a discarded transaction and when the
journal is handed to the next writer; and the mail ledger that asks them knows a mail a
game holds."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timezone

import pytest
from hypothesis import given, settings, strategies as st

from pbp.storage.datafolder import DataFolder
from pbp.storage.journal import LOOKUPS, Rows, apply
from pbp.storage.mail_ledger import MailLedger
from pbp.ports import InboundMail

STATUSES = ("queued", "sent", "failed", None)
op_strategy = st.one_of(
    st.tuples(st.just("insert"), st.sampled_from(STATUSES), st.sampled_from(("a", "b"))),
    st.tuples(
        st.just("update"), st.sampled_from(STATUSES), st.lists(st.integers(1, 12), max_size=3)
    ),
)


def scanned(rows: Rows, table: str, field: str, value) -> list[int]:
    return [doc_id for doc_id, row in rows.get(table, {}).items() if row.get(field) == value]


@settings(max_examples=200, deadline=None)
@given(st.lists(op_strategy, max_size=25))
def test_a_lookup_finds_what_a_scan_finds_after_any_inserts_and_updates(ops):
    rows, next_id = Rows(), 1
    for kind, status, more in ops:
        if kind == "insert":
            apply(rows, ["i", "outbox", next_id, {"status": status, "kind": more}])
            next_id += 1
        else:
            known = [doc_id for doc_id in more if doc_id < next_id]
            apply(rows, ["u", "outbox", known, {"status": status}])
        for value in STATUSES:
            assert sorted(rows.ids_where("outbox", "status", value)) == scanned(
                rows, "outbox", "status", value
            )


def test_an_insert_over_an_existing_row_moves_it_between_values():
    rows = Rows()
    apply(rows, ["i", "outbox", 1, {"status": "queued"}])
    apply(rows, ["i", "outbox", 1, {"status": "sent"}])
    assert rows.ids_where("outbox", "status", "queued") == set()
    assert rows.ids_where("outbox", "status", "sent") == {1}


def test_a_field_without_a_lookup_is_refused_rather_than_scanned():
    with pytest.raises(KeyError):
        Rows().ids_where("outbox", "recipient", "Alice")
    assert "recipient" not in LOOKUPS["outbox"]


def new_game(tmp_path):
    folder = DataFolder(tmp_path, writer=True)
    game = folder.add_game(
        "g1", "infiltration", "2026-01-01T00:00:00Z", {"id": "g1", "phase_id": "T1"}
    )
    return folder, game


def statuses(game) -> dict[str, list[int]]:
    return {
        status: [row.doc_id for row in game.outbox.where("status", status)]
        for status in ("queued", "sent")
    }


def test_where_agrees_with_a_scan_in_memory_after_a_replay_and_after_a_discarded_transaction(
    tmp_path,
):
    folder, game = new_game(tmp_path)
    with game.transaction():
        for number in range(6):
            game.outbox.insert({"kind": "report", "body": f"text {number}", "status": "queued"})
    game.outbox.update({"status": "sent"}, doc_ids=[2, 4])
    expected = {"queued": [1, 3, 5, 6], "sent": [2, 4]}
    assert statuses(game) == expected
    assert all("body" not in row for row in game.outbox.where("status", "sent"))  # no texts read
    with pytest.raises(RuntimeError):
        with game.transaction():
            game.outbox.update({"status": "sent"}, doc_ids=[1, 3, 5, 6])
            assert statuses(game)["queued"] == []
            raise RuntimeError("the commit fails")
    assert statuses(game) == expected
    folder.close()
    reader = DataFolder(tmp_path, writer=False)
    assert statuses(reader.game("g1")) == expected  # replayed from the disk
    reader.close()
    again = DataFolder(tmp_path, writer=True)  # the next writer of this process: handed over
    game = again.game("g1")
    game.outbox.update({"status": "sent"}, doc_ids=[1])
    assert statuses(game) == {"queued": [3, 5, 6], "sent": [1, 2, 4]}
    again.close()


def test_the_ledger_knows_a_mail_a_game_holds_by_key_bytes_or_message_id_with_its_sender(tmp_path):
    folder, game = new_game(tmp_path)
    clock = lambda: datetime(2026, 1, 1, tzinfo=timezone.utc)  # noqa: E731
    ledger = MailLedger(folder, clock)
    mail = InboundMail(
        key="uid-1",
        sha256="abc",
        message_id="<m1@players.example>",
        sender="alice@players.example",
        subject="orders",
    )
    with game.transaction():
        ledger.record(game, mail, "processed", "orders")
    fresh = MailLedger(folder, clock)  # knows nothing but what the storage holds
    assert fresh.already_handled("uid-1", "other") == "processed"
    assert fresh.already_handled("uid-2", "abc") == "processed"
    assert fresh.knows_key("uid-1") and not fresh.knows_key("uid-2")
    again = InboundMail(
        key="uid-3",
        sha256="def",
        message_id="<m1@players.example>",
        sender="alice@players.example",
        subject="orders",
    )
    assert fresh.earlier(again) == "processed"
    stranger = InboundMail(
        key="uid-4",
        sha256="ghi",
        message_id="<m1@players.example>",
        sender="mallory@players.example",
        subject="orders",
    )
    assert fresh.earlier(stranger) is None
    folder.close()


def order_mail(number: int) -> InboundMail:
    return InboundMail(
        key=f"uid-{number}",
        sha256=f"sha-{number}",
        message_id=f"<m{number}@players.example>",
        sender="alice@players.example",
        subject="orders",
    )


CLOCK = lambda: datetime(2026, 1, 1, tzinfo=timezone.utc)  # noqa: E731


def test_the_ledger_kept_between_cycles_reads_the_new_rows_and_forgets_a_discarded_commit(tmp_path):
    """`pbp run`'s next cycle knows the mail the last one handled without reading every
    row again; a commit that failed leaves no trace in what the next ledger knows, even
    though the ledger had read the game's rows before."""
    folder, game = new_game(tmp_path)
    ledger = MailLedger(folder, CLOCK)
    assert ledger.earlier(order_mail(1)) is None
    with game.transaction():
        ledger.record(game, order_mail(1), "processed", "orders")
    folder.close()

    folder = DataFolder(tmp_path, writer=True)  # the next cycle of the same process
    game = folder.game("g1")
    ledger = MailLedger(folder, CLOCK)
    assert ledger.earlier(order_mail(1)) == "processed" and ledger.earlier(order_mail(2)) is None
    with pytest.raises(RuntimeError):
        with game.transaction():
            ledger.record(game, order_mail(2), "processed", "orders")
            raise RuntimeError("the disk is full")
    ledger.forget()
    assert ledger.earlier(order_mail(2)) is None and ledger.earlier(order_mail(1)) == "processed"
    with game.transaction():
        ledger.record(game, order_mail(3), "rejected", "wrong token")
    folder.close()

    folder = DataFolder(tmp_path, writer=True)
    ledger = MailLedger(folder, CLOCK)
    assert [ledger.earlier(order_mail(number)) for number in (1, 2, 3)] == [
        "processed",
        None,
        "rejected",
    ]
    folder.close()


def test_the_ledger_reads_what_another_process_appended(tmp_path):
    """Another process's commit (`pbp advance` between two cycles) reaches the next
    cycle's ledger: the handed-over rows are extended by the lines appended since."""
    folder, game = new_game(tmp_path)
    MailLedger(folder, CLOCK).earlier(order_mail(1))  # the ledger of this process has read the game
    folder.close()
    other_process = (
        "import sys\n"
        "from datetime import datetime, timezone\n"
        "from pbp.storage.datafolder import DataFolder\n"
        "from pbp.storage.mail_ledger import MailLedger\n"
        "from pbp.ports import InboundMail\n"
        "folder = DataFolder(sys.argv[1], writer=True)\n"
        "game = folder.game('g1')\n"
        "mail = InboundMail(key='uid-4', sha256='sha-4', message_id='<m4@players.example>',\n"
        "                   sender='alice@players.example', subject='orders')\n"
        "with game.transaction():\n"
        "    MailLedger(folder, lambda: datetime.now(timezone.utc)).record(game, mail, 'processed', 'orders')\n"
        "folder.close()\n"
    )
    subprocess.run([sys.executable, "-c", other_process, str(tmp_path)], check=True)
    folder = DataFolder(tmp_path, writer=True)
    assert MailLedger(folder, CLOCK).earlier(order_mail(4)) == "processed"
    folder.close()
