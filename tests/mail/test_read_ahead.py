"""Reading a large poll ahead in a child process (pbp.mail.ingest.read_ahead; docs/design.md:
Reliability rules — Ingest, "Reading ahead"): the same outcome as reading it here, moves
only after commits, and a child that dies, fails or goes silent ends the poll early
without losing or doubling a mail. Against the real Dovecot, but for the child's own
failures, which use a small source behind the `PartSource` port."""

from __future__ import annotations

import fcntl
import hashlib
import json
import multiprocessing
import signal
from dataclasses import replace

import pytest

from pbp.mail.ingest import ingest_cycle
from pbp.mail.ingest.ingest_cycle import poll_once
from pbp.mail.imap.mailbox import ImapMailbox
from pbp.mail.ingest.inbound import parse_inbound
from pbp.mail.ingest import read_ahead
from pbp.mail.ingest.read_ahead import PART_SIZES, ReadAhead, can_read_ahead
from pbp.mail.ingest.reading import ReadingFailed
from pbp.mail.ingest.spool import Spool
from pbp.ports import RawMail

from tests.fixtures.crash_scripts import run_killing_poll
from tests.mail.helpers import crafted, order_mail
from tests.mail.test_ingest_batches import BatchingDesk

pytestmark = pytest.mark.integration
MAX_BYTES = 50_000
MAILS = 170  # more than the first two parts the child sends (PART_SIZES)


def test_this_machine_reads_ahead():
    """The tests below check the child's path: they mean something only where it is taken
    (CI's machine has two cores)."""
    assert can_read_ahead()
    assert MAILS > sum(PART_SIZES)


def deliver_backlog(mail_server, address: str) -> None:
    """Order mails, a HELP, an unreadable block, and one mail over the size limit."""
    for number in range(MAILS):
        if number == 7:
            mail_server.deliver_raw(
                address, crafted("q@example.org", "HELP\n", message_id=f"<m{number}@x>")
            )
        elif number == 60:
            mail_server.deliver_raw(
                address,
                crafted(
                    "big@example.org", "y" * (MAX_BYTES + 10) + "\n", message_id=f"<m{number}@x>"
                ),
            )
        elif number == 90:
            mail_server.deliver_raw(
                address,
                crafted(
                    "r@example.org",
                    "BEGIN ORDERS g1 T1\nTOKEN: t\nMOVE 1\n",
                    message_id=f"<m{number}@x>",
                ),
            )
        else:
            mail_server.deliver_raw(
                address,
                order_mail(
                    f"p{number % 9}@example.org",
                    orders=f"MOVE {number}",
                    message_id=f"<m{number}@x>",
                ),
            )


def box_of(mail_server, address: str, read_ahead_from: int) -> ImapMailbox:
    return ImapMailbox(
        mail_server.host,
        mail_server.imap_port,
        "none",
        address,
        "modpass",
        max_bytes=MAX_BYTES,
        read_ahead_from=read_ahead_from,
    )


def test_a_backlog_read_ahead_is_judged_filed_and_answered_as_one_read_here(
    mail_server, tmp_path, monkeypatch
):
    """Two inboxes with the same mail, one read here and one ahead: the desk receives the
    same mails, parsed the same way, in the same order (the child parsed them: this process
    parsed none); each part is committed before any of its mail moves; every mail is filed
    in the same folder. (At most `PART_SIZES[0]` mails judged together, so that the
    parts, and the commits, are known in advance.)"""
    monkeypatch.setattr(read_ahead, "JUDGED_TOGETHER", PART_SIZES[0])
    parsed_here = []
    real_parse = ingest_cycle.parse_inbound
    monkeypatch.setattr(
        ingest_cycle,
        "parse_inbound",
        lambda raw, *rest: parsed_here.append(raw.key) or real_parse(raw, *rest),
    )
    results = {}
    for read_ahead_from in (0, 1):
        address = mail_server.add_user(
            mail_server.new_address(f"mod{read_ahead_from}", "pbp.test"), "modpass"
        )
        deliver_backlog(mail_server, address)
        box = box_of(mail_server, address, read_ahead_from)
        desk = BatchingDesk(moved=lambda address=address: mail_server.count(address, "processed"))
        parsed_here.clear()
        try:
            report = poll_once(
                box,
                desk,
                Spool(tmp_path / f"spool{read_ahead_from}"),
                [address],
                MAX_BYTES,
                limit=1000,
            )
        finally:
            box.close()
        results[read_ahead_from] = (report, desk, list(parsed_here), address)
    (here, here_desk, parsed_by_here, here_box), (ahead, ahead_desk, parsed_by_ahead, ahead_box) = (
        results[0],
        results[1],
    )
    assert not ahead.failed and not here.failed
    assert [replace(mail, key="", sha256="") for mail in ahead_desk.received] == [
        replace(mail, key="", sha256="") for mail in here_desk.received
    ]
    assert len(ahead_desk.received) == MAILS - 1  # the oversized mail is not downloaded
    assert parsed_by_here and not parsed_by_ahead
    assert here_desk.commits == [MAILS - 1]
    # the second part holds the oversized mail (number 60), which is not judged
    assert ahead_desk.commits == [PART_SIZES[0], PART_SIZES[1] - 1, MAILS - sum(PART_SIZES)]
    # a part's mail moves only after its commit: at each commit, at most the parts before had moved
    committed_before = [sum(ahead_desk.commits[:index]) for index in range(len(ahead_desk.commits))]
    assert all(
        moved_then <= before
        for moved_then, before in zip(ahead_desk.moved_at_commit, committed_before)
    )
    assert len(ahead.processed) == len(here.processed) == MAILS - 1 and len(ahead.oversized) == 1
    for folder in ("INBOX", "processed", "rejected"):
        assert mail_server.count(ahead_box, folder) == mail_server.count(here_box, folder), folder
    assert mail_server.count(ahead_box, "INBOX") == 0
    assert Spool(tmp_path / "spool1").pending() == []


def test_a_reader_killed_after_its_first_part_ends_the_poll_and_the_next_reads_the_rest(
    mail_server, tmp_path, monkeypatch
):
    """The child is SIGKILLed after sending its first part: that part is judged, committed
    and filed, the poll reports why it stopped, and the next poll reads the rest. Each mail
    is received once."""
    address = mail_server.add_user(mail_server.new_address("moderator", "pbp.test"), "modpass")
    deliver_backlog(mail_server, address)
    desk, spool = BatchingDesk(), Spool(tmp_path / "spool")
    box = box_of(mail_server, address, 1)
    try:
        monkeypatch.setenv("PBP_CRASH_AT", "reader-after-part")  # read by the child only
        first = poll_once(box, desk, spool, [address], MAX_BYTES, limit=1000)
        monkeypatch.delenv("PBP_CRASH_AT")
        assert len(first.processed) == PART_SIZES[0]
        assert first.failed == [
            (
                "(inbox)",
                "the rest of the inbox waits for the next poll: the reading process stopped",
            )
        ]
        assert mail_server.count(address, "INBOX") == MAILS - PART_SIZES[0]
        second = poll_once(box, desk, spool, [address], MAX_BYTES, limit=1000)
    finally:
        box.close()
    assert not second.failed and len(second.processed) == MAILS - 1 - PART_SIZES[0]
    ids = [mail.message_id for mail in desk.received]
    assert len(ids) == len(set(ids)) == MAILS - 1
    assert mail_server.count(address, "INBOX") == 0 and spool.pending() == []


def test_a_poll_killed_after_a_commit_while_reading_ahead_loses_and_doubles_nothing(
    mail_server, tmp_path
):
    """The parent is SIGKILLed right after its first commit (before that part moves), its
    child maybe still reading: the restart moves the committed part without judging it
    again and judges the rest once."""
    address = mail_server.add_user(mail_server.new_address("moderator", "pbp.test"), "modpass")
    deliver_backlog(mail_server, address)
    killed = run_killing_poll(
        tmp_path,
        mail_server,
        address,
        BatchingDesk,
        MAX_BYTES,
        crash_at="after-commit",
        read_ahead_from=1,
    )
    assert killed.returncode == -signal.SIGKILL
    first_commit = json.loads((tmp_path / "desk.json").read_text())["by_key"]
    assert 0 < len(first_commit) < MAILS - 1 and mail_server.count(address, "INBOX") == MAILS
    resettled, received = [], []
    while mail_server.count(address, "INBOX"):  # a poll of this script takes 100 mails
        survivor = run_killing_poll(
            tmp_path, mail_server, address, BatchingDesk, MAX_BYTES, read_ahead_from=1
        )
        assert survivor.returncode == 0, survivor.stderr
        result = json.loads(survivor.stdout)
        assert result["failed"] == []
        resettled += [key for key, _outcome in result["resettled"]]
        received += result["received"]
    assert sorted(resettled) == sorted(first_commit)
    assert len(received) == len(set(received)) == MAILS - 1 - len(first_commit)
    assert len(json.loads((tmp_path / "desk.json").read_text())["by_key"]) == MAILS - 1
    assert mail_server.count(address, "INBOX") == 0
    assert mail_server.count(address, "processed") + mail_server.count(address, "rejected") == MAILS


# ------------------------------------------------------------------ the child's own failures
class Source:
    """A `PartSource` standing in for the child's mailbox: yields `parts`, doing `trouble`
    before the first and `stall` after them."""

    def __init__(self, parts: list[list[RawMail]], trouble=None, stall=None) -> None:
        self.parts, self.trouble, self.stall = parts, trouble, stall

    def download_parts(self, uidvalidity, uids, part_sizes):
        if self.trouble is not None:
            self.trouble()
        yield from self.parts
        if self.stall is not None:
            self.stall()

    def close(self) -> None:
        return None

    def let_go(self) -> None:
        return None


class Mover:
    def __init__(self) -> None:
        self.moved: list[tuple[list[str], str]] = []

    def settle_many(self, keys, outcome) -> None:
        self.moved.append((keys, outcome))


def raw(number: int) -> RawMail:
    data = order_mail(f"p{number}@example.org", message_id=f"<r{number}@x>")
    return RawMail(f"1:{number}", data, hashlib.sha256(data).hexdigest())


def prepare(mail: RawMail):
    if mail.key == "1:2":
        raise RuntimeError("this parse breaks in the child")
    return parse_inbound(mail, (), MAX_BYTES)


def test_what_the_child_cannot_parse_is_handed_over_unparsed_and_moves_are_made_here_in_order():
    mover = Mover()
    reading = ReadAhead(Source([[raw(1), raw(2)], [raw(3)]]), 1, [1, 2, 3], prepare, mover)
    try:
        items = [pair for part in reading.parts() for pair in part]
        first = reading.settle_many(["1:1", "1:3"], "processed")
        second = reading.settle_many(["1:2"], "rejected")
    finally:
        reading.close()
    assert [mail.key for mail, _ in items] == ["1:1", "1:2", "1:3"]
    assert [parsed is None for _, parsed in items] == [False, True, False]
    assert items[0][1] == parse_inbound(raw(1), (), MAX_BYTES)
    assert first.done() and second.done() and first.exception() is None
    assert mover.moved == [(["1:1", "1:3"], "processed"), (["1:2"], "rejected")]
    assert reading.failure is None


def test_a_whole_part_fits_in_the_pipe_so_the_child_reads_on_without_waiting_for_this_process():
    """A part of 100 order mails is some 95 KB, more than a pipe holds by default (64 KB):
    the child would wait, part after part, for this process's listening thread, which waits
    its turn behind the judging, to take the rest."""
    reading = ReadAhead(Source([[raw(1)]]), 1, [1], prepare, Mover())
    try:
        assert fcntl.fcntl(reading._channel.fileno(), fcntl.F_GETPIPE_SZ) >= read_ahead.PIPE_BYTES
        assert [len(part) for part in reading.parts()] == [1]
    finally:
        reading.close()


def test_parts_that_came_meanwhile_are_judged_together_but_the_polls_last_part_alone():
    """Everything the child sent while the part before was judged is handed over as one
    part, but for the part that ends the poll: its judging overlaps the move of all that
    came before, so the poll waits at its end only for the smallest move."""
    reading = ReadAhead(
        Source([[raw(1)], [raw(2), raw(3)], [raw(4)], [raw(5), raw(6)]]),
        1,
        [1, 2, 3, 4, 5, 6],
        prepare,
        Mover(),
    )
    try:
        reading._listener.join()  # every part has come before the judging asks for one
        sizes = [len(part) for part in reading.parts()]
    finally:
        reading.close()
    assert sizes == [4, 2]


def test_what_the_caller_does_meanwhile_runs_only_if_the_first_part_is_still_being_read():
    """The child waits to send until `meanwhile` has run (were it not run, the poll would
    fail after its patience); once the first part has come, `meanwhile` is not run."""
    gate = multiprocessing.get_context("fork").Semaphore(0)
    reading = ReadAhead(
        Source([[raw(1)]], trouble=gate.acquire), 1, [1], prepare, Mover(), patience=30
    )
    try:
        first = next(reading.parts(meanwhile=gate.release))  # the child sends once it has run
    finally:
        reading.close()
    assert [mail.key for mail, _ in first] == ["1:1"]

    reading = ReadAhead(Source([[raw(1)]]), 1, [1], prepare, Mover())
    try:
        reading._listener.join()  # the first part has come
        ran = []
        assert len(next(reading.parts(meanwhile=lambda: ran.append(True)))) == 1 and not ran
    finally:
        reading.close()


def test_the_ingest_gets_its_desk_ready_while_the_mail_is_read_and_a_failure_there_stops_nothing(
    tmp_path,
):
    """The desk is made ready (its templates compiled) while the child reads; a desk that
    fails to get ready still judges the poll's mail (what failed there would fail again at
    its first mail, where that is handled)."""
    gate = multiprocessing.get_context("fork").Semaphore(0)
    mover = Mover()

    class Box:
        def read(self, limit, prepare):
            return ReadAhead(
                Source([[raw(1), raw(3)]], trouble=gate.acquire),
                1,
                [1, 3],
                prepare,
                mover,
                patience=30,
            )

        def close(self) -> None:
            return None

    class UnreadyDesk(BatchingDesk):
        def get_ready(self) -> None:
            super().get_ready()
            gate.release()
            raise OSError("a template could not be read")

    desk = UnreadyDesk()
    report = poll_once(Box(), desk, Spool(tmp_path / "spool"), [], MAX_BYTES)
    assert desk.readied == 1 and not report.failed
    assert [mail.key for mail in desk.received] == ["1:1", "1:3"] and len(report.processed) == 2
    assert sorted(key for keys, _outcome in mover.moved for key in keys) == ["1:1", "1:3"]


def test_moves_are_gathered_into_one_per_outcome_until_the_polls_last_part_is_handed_over():
    """A server's move costs it about the same whatever its size: moves asked for while
    the poll goes on wait, gathered, and start as one move per outcome once the poll's
    last part is handed over (they are then made while it is judged); later ones start
    when asked."""
    mover = Mover()
    reading = ReadAhead(
        Source([[raw(1), raw(2)], [raw(3)], [raw(4)]]), 1, [1, 2, 3, 4], prepare, mover
    )
    try:
        reading._listener.join()  # every part has come: [1, 2, 3], then the last one alone
        parts = reading.parts()
        assert [mail.key for mail, _ in next(parts)] == ["1:1", "1:2", "1:3"]
        first = reading.settle_many(["1:1", "1:3"], "processed")
        second = reading.settle_many(["1:2"], "rejected")
        assert mover.moved == [] and not first.done() and not second.done()
        assert [mail.key for mail, _ in next(parts)] == ["1:4"]
        second.result(timeout=30)
        last = reading.settle_many(["1:4"], "processed")
        last.result(timeout=30)
    finally:
        reading.close()
    assert mover.moved == [
        (["1:1", "1:3"], "processed"),
        (["1:2"], "rejected"),
        (["1:4"], "processed"),
    ]


def test_gathered_moves_start_once_they_hold_enough_mail_or_when_one_is_waited_for(monkeypatch):
    monkeypatch.setattr(read_ahead, "MOVED_TOGETHER", 2)
    mover = Mover()
    reading = ReadAhead(
        Source([[raw(1), raw(2), raw(3)], [raw(4)]]), 1, [1, 2, 3, 4], prepare, mover
    )
    try:
        reading._listener.join()
        next(reading.parts())
        first = reading.settle_many(["1:1"], "processed")
        assert mover.moved == [] and not first.done()
        reading.settle_many(["1:2"], "processed").result(timeout=30)
        assert first.done() and mover.moved == [(["1:1", "1:2"], "processed")]
        reading.settle_many(["1:3"], "rejected", at_once=True).result(timeout=30)
        assert mover.moved[-1] == (["1:3"], "rejected")
    finally:
        reading.close()


def test_a_failed_move_is_told_to_each_of_the_moves_gathered_into_it():
    class Refusing(Mover):
        def settle_many(self, keys, outcome) -> None:
            raise ConnectionResetError("the server hung up")

    reading = ReadAhead(Source([[raw(1), raw(2)], [raw(3)]]), 1, [1, 2, 3], prepare, Refusing())
    try:
        reading._listener.join()
        next(reading.parts())
        asked = [
            reading.settle_many(["1:1"], "processed"),
            reading.settle_many(["1:2"], "processed"),
        ]
    finally:
        reading.close()
    assert all(isinstance(move.exception(timeout=30), ConnectionResetError) for move in asked)


def test_a_child_that_fails_before_its_first_part_fails_the_poll_like_a_fetch():
    def refuse():
        raise ConnectionRefusedError("the server said no")

    reading = ReadAhead(Source([], trouble=refuse), 1, [1], prepare, Mover())
    try:
        with pytest.raises(ReadingFailed, match="ConnectionRefusedError: the server said no"):
            list(reading.parts())
    finally:
        reading.close()


def test_a_child_that_sends_nothing_is_killed_after_its_patience():
    """The child never sends (it waits for a signal nobody gives): after `patience` seconds
    the parent kills it and the poll fails like a fetch; nothing waits for ever."""
    reading = ReadAhead(Source([], trouble=signal.pause), 1, [1], prepare, Mover(), patience=0.5)
    try:
        with pytest.raises(ReadingFailed, match="sent nothing for 0.5 seconds"):
            list(reading.parts())
    finally:
        reading.close()
    assert not reading._child.is_alive()


def test_a_parent_that_stops_reading_early_stops_its_child():
    """The ingest gives up after the first part (an exception in the poll) while the child
    is still at work (here: waiting for ever): closing the reading stops the child, and the
    moves asked for are still made."""
    mover = Mover()
    reading = ReadAhead(Source([[raw(1)]], stall=signal.pause), 1, [1, 2], prepare, mover)
    first = next(reading.parts())
    reading.settle_many([first[0][0].key], "processed")
    reading.close()
    assert not reading._child.is_alive() and mover.moved == [(["1:1"], "processed")]
