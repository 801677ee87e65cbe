"""Which of a mail's order blocks count, when it holds more than one for the same game and
phase (docs/design.md: Order mail format — several blocks in one mail).

Replies carry old blocks: a player answering their own earlier orders mail gets it copied
below the new text (Outlook copies it unquoted, under a header block of its own). Two rules
read such a mail as the player meant it, never letting the old block win:

1. A block identical to one pbp already judged from this player for this phase is a copy
   of the earlier mail, and is skipped when the mail holds another block for that phase.
   A block judged before that is not the latest judged for that phase is skipped even
   alone: a reply that only quotes an older orders mail never brings its orders back over
   newer ones (the receipt says the newer orders stand); the latest sent again is read.
2. Of the rest, the first counts: a reply's new text stands above the mail it answers.
   The others are named in the receipt as not read.

Only blocks that carry the player's token compete: one with a wrong token is judged, and
refused, on its own.

A block is identified by its fingerprint: its order lines (comments and blank lines left
out, case and spacing ignored), so a copy is recognised however it was quoted or wrapped.
The fingerprints of the blocks a mail had judged are kept in that mail's ledger row.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable, Sequence

from pbp.storage.datafolder import GameFile
from pbp.ports import OrderBlock
from pbp.render.verdicts import Note


def fingerprint(block: OrderBlock) -> str:
    lines = [
        " ".join(line.split()).casefold()
        for line in block.lines
        if line.strip() and not line.startswith("#")
    ]
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:24]


def judged_entry(block: OrderBlock) -> str:
    """How the ledger row of the mail that had `block` judged names it: its phase and its
    fingerprint (pbp.storage.mail_ledger.MailLedger.record)."""
    return f"{block.phase.lower()} {fingerprint(block)}"


def judged_before(file: GameFile, address: str, phase: str) -> list[str]:
    """The fingerprints of the blocks judged for `phase` (lower case) from `address`, in
    the order they were last judged: the ledger rows of its mail name them."""
    prefix = f"{phase} "
    found = [
        entry[len(prefix) :]
        for row in file.mails.where("sender", address)
        for entry in row.get("judged", ())
        if entry.startswith(prefix)
    ]
    return list(reversed(dict.fromkeys(reversed(found))))


@dataclass(frozen=True)
class Choice:
    """The blocks to judge, in the mail's order, and the notes that say which were not read."""

    blocks: tuple[OrderBlock, ...]
    notes: tuple[Note, ...]


def choose_blocks(
    blocks: tuple[OrderBlock, ...],
    judged: Callable[[str], Sequence[str]],
    proves: Callable[[OrderBlock], bool],
) -> Choice:
    """The blocks that count (see the module's docstring). `judged(phase)` gives the
    fingerprints of the sender's blocks judged for a phase id (lower case); `proves(block)`
    says the block carries the sender's token for its game. Only those compete: a block
    with a wrong token is judged (and refused) on its own, so it never hides the player's
    block; a block that fills in no order is left as it is (a returned form is no submission)."""
    kept: list[OrderBlock] = []
    notes: list[Note] = []
    by_phase: dict[tuple[str, str], list[OrderBlock]] = {}
    for block in blocks:
        if block.has_orders and proves(block):
            by_phase.setdefault((block.game.lower(), block.phase.lower()), []).append(block)
    chosen: set[int] = set()
    for (_game, phase), whole in by_phase.items():
        earlier = judged(phase)
        group = [
            b for b in whole if fingerprint(b) not in earlier[:-1] or fingerprint(b) == earlier[-1]
        ]
        if len(group) < len(whole):
            notes.append(_older_note(whole[0], len(whole) - len(group), alone=not group))
        if len(group) < 2:
            chosen.update(id(b) for b in group)
            continue
        fresh = [b for b in group if fingerprint(b) not in earlier]
        copies = len(group) - len(fresh)
        if copies and fresh:
            notes.append(_copies_note(group[0], copies))
        else:
            fresh = group
        first, *others = fresh
        chosen.add(id(first))
        if others:
            notes.append(_later_note(first, others))
    competing = {id(block) for group in by_phase.values() for block in group}
    for block in blocks:
        if id(block) not in competing or id(block) in chosen:
            kept.append(block)
    return Choice(tuple(kept), tuple(notes))


def _copies_note(block: OrderBlock, copies: int) -> Note:
    return Note("copies_skipped", copies=copies, block_game=block.game, block_phase=block.phase)


def _older_note(block: OrderBlock, older: int, alone: bool) -> Note:
    return Note(
        "older_blocks_skipped",
        older=older,
        alone=alone,
        block_game=block.game,
        block_phase=block.phase,
    )


def _later_note(first: OrderBlock, others: list[OrderBlock]) -> Note:
    return Note(
        "later_blocks",
        others=len(others),
        block_game=first.game,
        block_phase=first.phase,
        other_lines=tuple(b.at_line for b in others if b.at_line),
        first_line=first.at_line,
    )
