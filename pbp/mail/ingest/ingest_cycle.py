"""One ingest cycle (docs/design.md: Reliability rules — Ingest, Bad input):

1. fetch unsettled mail without marking it seen (oversized mail is not downloaded); a
   large poll is read ahead in parts by a child process (pbp.mail.ingest.read_ahead), and each
   part goes through the steps below as a poll of its own;
2. spool every fetched message durably, before anything else;
3. for each spooled message (crash leftovers first):
   - already handled by the desk (a crash came after the commit) → only settle it;
   - claimed three times already (it raised, or killed the process, each time) →
     quarantine it and report it;
   - else claim it, parse it, let the desk judge and commit it, then settle it;
4. oversized mail is settled as `rejected` and reported with its sender.

Quarantined and oversized mail is handed to `note_refused` (pbp.daemon.cycle records it for
`pbp status`) *before* it is moved: like every other outcome, the record is committed
first, so a crash in between can never leave mail filed away that the host was not told
of. The next poll then only moves it.

Batches ("one durable write may cover a whole fetched batch"): the messages never tried
before are judged together inside the desk's `batch()` and so committed in one durable
write, and only then moved on the server, one move per outcome (`settle_many`). With
`together=False` every message is judged and settled alone, as below (for a desk whose
every `receive` is its own commit). The group is
claimed as a whole before it is judged (one strike each). A message claimed before (it
failed, or a crash stopped its run) is handled alone as above, so a message that kills
the process costs its batch-mates one strike, and the next run finds the killer alone.
When one message raises inside a batch, the batch's write is discarded (so none of that
message's half-made changes are kept) and the others are judged again without it, with
no further strike.

The poller never dies of one message: whatever one message raises is reported and the
others go on. Only a failure to fetch at all leaves this function. What it reports:
pbp.mail.ingest.report.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection
from concurrent.futures import Future

from pbp.crashpoints import crash_point
from pbp.errors import described
from pbp.mail.headers import strict_sender
from pbp.mail.ingest.batch_judging import judge_together
from pbp.mail.ingest.inbound import parse_inbound, parse_message
from pbp.mail.ingest.report import IngestReport, QuarantinedMail, RefusalNote, ignore_refused
from pbp.mail.ingest.reading import Part, Reading, ReadingFailed, open_reading
from pbp.mail.ingest.spool import Spool, SpooledMail
from pbp.ports import InboundMail, Mailbox, OrderDesk, Outcome, OversizedMail, RawMail

MAX_ATTEMPTS = 3
DEFAULT_BATCH = 100


def poll_once(
    mailbox: Mailbox,
    desk: OrderDesk,
    spool: Spool,
    own_addresses: Collection[str],
    max_bytes: int,
    limit: int = DEFAULT_BATCH,
    note_refused: RefusalNote = ignore_refused,
    together: bool = True,
) -> IngestReport:
    """One ingest cycle with a fresh `Ingest` (see its `poll`)."""
    return Ingest(mailbox, desk, spool, own_addresses, max_bytes, note_refused, together).poll(
        limit
    )


class Ingest:
    """The ingest cycle and its ports: the mailbox it reads, the desk that judges, the
    spool that keeps mail durable, the limits of acceptable mail, and where refusals go."""

    def __init__(
        self,
        mailbox: Mailbox,
        desk: OrderDesk,
        spool: Spool,
        own_addresses: Collection[str],
        max_bytes: int,
        note_refused: RefusalNote = ignore_refused,
        together: bool = True,
    ) -> None:
        self.mailbox = mailbox
        self.desk = desk
        self.spool = spool
        self.own_addresses = own_addresses
        self.max_bytes = max_bytes
        self.note_refused = note_refused
        self.together = together  # judge never-tried mail in one batch (see the module docstring)
        self.report = IngestReport()
        self._reading: Reading | None = None
        self._prepared: dict[tuple[str, str], InboundMail] = {}  # parsed ahead, by (key, sha256)
        # moves asked for and not yet reported: (the move, its outcome, its judged entries)
        self._moves: list[
            tuple[Future[None], Outcome, list[tuple[SpooledMail, Outcome, bool]]]
        ] = []

    def poll(self, limit: int = DEFAULT_BATCH) -> IngestReport:
        """Run one cycle (the module docstring) and return its own report. A large inbox
        may be read in parts (pbp.mail.ingest.read_ahead): each part is then handled as a poll of
        its own, crash leftovers with the first."""
        self.report = report = IngestReport()
        self._moves = []
        leftovers = self.spool.pending()
        self._reading = reading = open_reading(self.mailbox, limit, self._parse)
        try:
            for part in reading.parts(meanwhile=self._get_ready):
                self._poll_part(part, leftovers)
                leftovers = []
                self._settled(wait=False)
            if reading.failure:
                report.failed.append(
                    ("(inbox)", f"the rest of the inbox waits for the next poll: {reading.failure}")
                )
        finally:
            self._reading = None
            reading.close()  # waits for the moves asked for
        self._settled(wait=True)
        return report

    def _poll_part(self, part: Part, leftovers: list[SpooledMail]) -> None:
        report = self.report
        report.fetched += len(part)
        known = {entry.identity for entry in leftovers}
        fresh: list[RawMail] = []
        for item, prepared in part:
            if isinstance(item, OversizedMail):
                self._reject_oversized(item)
            elif (item.key, item.sha256) not in known:
                known.add((item.key, item.sha256))
                fresh.append(item)
                if prepared is not None:
                    self._prepared[item.key, item.sha256] = prepared
        entries = leftovers + self.spool.store(fresh)
        crash_point("after-spool")
        together = [entry for entry in entries if self.together and self._never_tried(entry)]
        grouped = {entry.identity for entry in together}
        alone = [entry for entry in entries if entry.identity not in grouped]
        for entry in alone:
            self._handle(entry)
        if together:
            self._handle_together(together)
        self._prepared.clear()

    def _get_ready(self) -> None:
        # What fails here fails again, and is handled, at the first mail.
        with contextlib.suppress(Exception):
            self.desk.get_ready()

    def _never_tried(self, entry: SpooledMail) -> bool:
        try:
            return self.spool.attempts(entry.raw, entry.batch) == 0
        except OSError:
            return False

    def _parse(self, raw: RawMail) -> InboundMail:
        return parse_inbound(raw, self.own_addresses, self.max_bytes)

    def _judge(self, raw: RawMail) -> Outcome:
        prepared = self._prepared.pop((raw.key, raw.sha256), None)  # parsed ahead by the reading
        return self.desk.receive(prepared or self._parse(raw))

    def _handle_together(self, entries: list[SpooledMail]) -> None:
        """Judge `entries` in one durable write, then settle them (see the module docstring)."""
        self.spool.claim_together(entries)  # one strike each for this run, however many rounds
        judged = judge_together(self.desk, entries, self._judge, self.report.failed)
        if judged is not None:
            crash_point("after-commit")
            self._settle_together(judged)

    def _settle_together(self, judged: list[tuple[SpooledMail, Outcome, bool]]) -> None:
        """Ask for committed mail to be moved, one move per outcome (see `_settled`)."""
        by_outcome: dict[Outcome, list[tuple[SpooledMail, Outcome, bool]]] = {}
        for item in judged:
            by_outcome.setdefault(item[1], []).append(item)
        for outcome, items in by_outcome.items():
            keys = [entry.raw.key for entry, _o, _b in items]
            self._moves.append((self._reading_now().settle_many(keys, outcome), outcome, items))

    def _settle_now(self, key: str, outcome: Outcome) -> None:
        """Move one message and wait for it; through the reading, which may be moving a
        batch on the same connection meanwhile. Raises what the move raised."""
        self._reading_now().settle_many([key], outcome, at_once=True).result()

    def _reading_now(self) -> Reading:
        assert self._reading is not None, "moves are asked for only inside a poll"
        return self._reading

    def _settled(self, wait: bool) -> None:
        """For each move made (all of them when `wait`), mark its mail done in the spool
        and report it. A read in this process moves at once; a read ahead moves on its own
        thread, so a move may still be under way until the reading is closed."""
        report = self.report
        waiting: list[tuple[Future[None], Outcome, list[tuple[SpooledMail, Outcome, bool]]]] = []
        for move, outcome, items in self._moves:
            if not (wait or move.done()):
                waiting.append((move, outcome, items))
                continue
            not_moved = (
                move.exception(timeout=0)
                if move.done()
                else ReadingFailed("the move was never made")
            )
            if not_moved is not None:  # committed, not moved: the next poll settles them
                report.failed += [(entry.raw.key, described(not_moved)) for entry, _o, _b in items]
                continue
            try:
                self.spool.mark_all_done([entry for entry, _o, _b in items])
            # Moved but not marked: the next poll only settles them again.
            except Exception as error:
                report.failed += [(entry.raw.key, described(error)) for entry, _o, _b in items]
                continue
            for entry, _o, before in items:
                (report.resettled if before else report.processed).append((entry.raw.key, outcome))
        self._moves = waiting

    def _reject_oversized(self, mail: OversizedMail) -> None:
        try:
            self.note_refused(mail)
            self._settle_now(mail.key, "rejected")
            self.report.oversized.append(mail)
        # One message never stops the poll: it is reported and tried again next poll.
        except Exception as error:
            self.report.failed.append((mail.key, described(error)))

    def _handle(self, entry: SpooledMail) -> None:
        raw = entry.raw
        report, desk, spool = self.report, self.desk, self.spool
        try:
            earlier = desk.already_handled(raw.key, raw.sha256)
            if earlier is not None:
                self._settle_now(raw.key, earlier)
                spool.mark_done(entry)
                report.resettled.append((raw.key, earlier))
                return
            attempts = spool.attempts(raw, entry.batch)
            if attempts >= MAX_ATTEMPTS:
                self._quarantine(entry, f"processing failed {attempts} times (the process stopped)")
                return
            spool.claim(raw)
        # One message never stops the poll: it is reported and tried again next poll.
        except Exception as error:
            report.failed.append((raw.key, described(error)))
            return
        try:
            outcome = self._judge(raw)
            crash_point("after-commit")
            self._settle_now(raw.key, outcome)
            spool.mark_done(entry)
            report.processed.append((raw.key, outcome))
        # One message never stops the poll: counted as an attempt, quarantined after three.
        except Exception as error:
            reason = described(error)
            report.failed.append((raw.key, reason))
            if attempts + 1 >= MAX_ATTEMPTS:
                try:
                    if desk.already_handled(raw.key, raw.sha256) is None:
                        self._quarantine(entry, f"processing failed {attempts + 1} times: {reason}")
                # The poll goes on; the next poll tries the quarantine again.
                except Exception as second_error:
                    report.failed.append((raw.key, described(second_error)))

    def _quarantine(self, entry: SpooledMail, reason: str) -> None:
        quarantined = QuarantinedMail(
            entry.raw.key, entry.raw.sha256, _sender_of(entry.raw), reason
        )
        # The host is told first: a crash after it only leaves the move to redo.
        self.note_refused(quarantined)
        self._settle_now(entry.raw.key, "quarantine")
        self.spool.mark_done(entry)
        self.report.quarantined.append(quarantined)


def _sender_of(raw: RawMail) -> str | None:
    try:
        return strict_sender(parse_message(raw))
    except Exception:  # hostile bytes may break the parser in any way: no sender known
        return None
