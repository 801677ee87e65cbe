"""What the drafts pages show of a game's drafts, read from its file (docs/design.md: The
drafts page): each draft as its forum will show it beside its source with the leak
check's findings marked, and which earlier draft holds it back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.errors import Wording
from pbp.forum.publishing.leak_spans import game_leak_check, leak_findings, split_at
from pbp.forum.publishing.leaks import LeakCheck
from pbp.forum.publishing.publish import held_behind
from pbp.game.stored import StoredGame
from pbp.storage.datafolder import GameFile
from pbp.storage.drafts import DRAFT, PUBLISHED, WITHDRAWN, DraftBook, DraftRow
from pbp.web.forum_preview import FORUM_OF, forum_html
from pbp.web.host_words import in_host_language

# Published and withdrawn drafts the game's page still lists, newest last.
PAST_SHOWN = 10


@dataclass
class DraftView:
    """One draft as a page shows it; `text` is the source shown (the host's refused edit
    while it is being fixed, else the stored text)."""

    row: DraftRow
    text: str
    leaks: list[str]
    parts: list[tuple[str, bool]]
    preview: Any
    held_by: str = ""
    forum: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def phase(self) -> str:
        return str(self.row.phase)

    @property
    def waiting(self) -> bool:
        return bool(self.row.status == DRAFT)

    @property
    def editable(self) -> bool:
        return self.row.status not in (PUBLISHED, WITHDRAWN)


def draft_view(
    game: StoredGame,
    book: DraftBook,
    row: DraftRow,
    text: str | None = None,
    held: dict[str, str] | None = None,
    check: LeakCheck | None = None,
) -> DraftView:
    """The view of draft `row`, its text or `text` (a host's edit not saved); `held` and
    `check`: the game's, when the caller has them for all its drafts."""
    source = row.text if text is None else text
    if row.status in (PUBLISHED, WITHDRAWN):
        leaks, spans = list(row.leaks or []), list[tuple[int, int]]()
    else:
        leaks, spans = leak_findings(game, book, row, source, check)
    notes = []
    if row.forced:
        notes.append(Wording("approved despite the leak check"))
    if row.edited:
        notes.append(Wording("edited by the host"))
    if row.error:
        notes.append(Wording("last publishing error: %(error)s", {"error": row.error}))
    holder = (held if held is not None else held_behind(book)).get(row.phase, "")
    return DraftView(
        row,
        source,
        [in_host_language(leak) for leak in leaks],  # a stored finding: as it was written
        split_at(source, spans),
        forum_html(source, row.dialect),
        held_by=holder,
        forum=FORUM_OF.get(row.dialect, row.dialect),
        notes=[in_host_language(note) for note in notes],
    )


def game_drafts(game: StoredGame) -> tuple[list[DraftView], list[DraftRow]]:
    """(every draft still to publish, in order, as views; the last published or withdrawn
    ones, as rows)."""
    book = DraftBook(game.file)
    held, check = held_behind(book), game_leak_check(game, book)
    pending = [draft_view(game, book, row, held=held, check=check) for row in book.unpublished()]
    past = [row for row in book.all() if row.status in (PUBLISHED, WITHDRAWN)][-PAST_SHOWN:]
    return pending, past


def waiting_count(game_file: GameFile) -> tuple[int, int]:
    """(drafts waiting for the host's approval, approved ones not yet published), read
    from the game's file alone (its state is not decoded)."""
    pending = DraftBook(game_file).unpublished()
    waiting = sum(1 for row in pending if row.status == DRAFT)
    return waiting, len(pending) - waiting
