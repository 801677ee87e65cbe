"""The spool (pbp.mail.ingest.spool; docs/design.md: Reliability rules — Ingest): what a poll
fetched is kept on disk until judged, read back byte for byte, and each claim of a mail
is counted so that one that keeps failing can be quarantined."""

from __future__ import annotations

import hashlib

from pbp.mail.ingest.spool import Spool
from pbp.ports import RawMail


def test_spool_reads_back_exactly_and_forgets_done_batches(tmp_path):
    datas = [bytes([65 + n]) * n + b"\r\n\n" for n in range(1, 4)]
    mails = [
        RawMail(f"7:{n}", data, hashlib.sha256(data).hexdigest()) for n, data in enumerate(datas)
    ]
    Spool(tmp_path / "spool").store(mails)
    again = Spool(tmp_path / "spool")
    pending = again.pending()
    assert [entry.raw for entry in pending] == mails
    again.mark_done(pending[1])
    assert [entry.raw for entry in Spool(tmp_path / "spool").pending()] == [mails[0], mails[2]]
    third = Spool(tmp_path / "spool")
    for entry in third.pending():
        third.mark_done(entry)
    assert list((tmp_path / "spool").glob("batch-*")) == []


def test_claims_count_attempts_until_cleared(tmp_path):
    spool = Spool(tmp_path / "spool")
    mail = RawMail("1:1", b"x", hashlib.sha256(b"x").hexdigest())
    spool.claim(mail)
    spool.claim(mail)
    assert Spool(tmp_path / "spool").attempts(mail) == 2
    spool.clear_claims(mail)
    assert spool.attempts(mail) == 0
