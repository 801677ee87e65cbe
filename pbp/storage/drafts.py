"""The drafts of one game, kept in the game's own file (tables `drafts` and `forum`; the
host token is in the game's record, pbp.storage.host_token), so a draft is written in the
same durable write as the resolution it reports (docs/design.md: Public posts; host
review, Publishing).

A draft is one row per (game, phase): status `draft` → `approved` → `published` (or
`withdrawn`: a running tally nobody approved before its vote closed, or an opening post
nobody approved before a later post went out; never published), its
generated text, the current text (the host's edit, if any) with an `edited` flag, the
leaks found at the last check, and the publishing record (marker, attempts, next try,
last error, where it went). A new draft for a phase that is already approved or published
never overwrites it.

Outside the storage a row is read as a `DraftRow` (docs/design.md: Typed rows), made by
`from_row` at this edge; the stored row keeps its keys (`to_row` gives them back unchanged).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from tinydb import Query

from pbp.storage.datafolder import GameFile

DRAFT, APPROVED, PUBLISHED, WITHDRAWN = "draft", "approved", "published", "withdrawn"
# Kinds of draft that hold nothing up while the host has not approved them: a running
# count, and the opening post (a host may write their own).
OPTIONAL_KINDS = ("tally", "opening")
OPENING = "opening"  # the key (and kind) of a game's opening post


@dataclass(frozen=True)
class DraftRow:
    """One public post of a game (one row of the table `drafts`): what it says, where it
    stands (status), and how publishing it went."""

    phase: str  # the key: a phase id, or OPENING, or `<phase>/tally…` for a running count
    sequence: int  # the order posts go out in
    status: str
    title: str = ""
    generated: str = ""  # the text as pbp wrote it
    text: str = ""  # the text to publish (the host's edit, if `edited`)
    player_spans: tuple[tuple[int, int], ...] = ()  # where player names sit in `generated`
    dialect: str = ""
    leaks: tuple[str, ...] = ()  # what the last check found
    kind: str = "post"
    edited: bool = False
    source: Mapping[str, Any] | None = None  # template and facts, while waiting for the host
    marker: str = ""  # the mark that finds the post again in the thread
    attempts: int = 0
    next_try: float = 0.0  # POSIX seconds
    error: str = ""
    ref: str = ""  # the forum's id of the published post
    url: str = ""  # its address
    forced: bool = False  # published despite leaks
    extra: Mapping[str, Any] = field(default_factory=dict)  # keys this version does not know

    @property
    def is_draft(self) -> bool:
        return self.status == DRAFT

    @property
    def approved(self) -> bool:
        return self.status == APPROVED

    @property
    def published(self) -> bool:
        return self.status == PUBLISHED

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> DraftRow:
        return cls(
            phase=row["phase"],
            sequence=row.get("sequence", 0),
            status=row.get("status", DRAFT),
            title=row.get("title", ""),
            generated=row.get("generated", ""),
            text=row.get("text", ""),
            player_spans=tuple(
                (int(span[0]), int(span[1])) for span in row.get("player_spans", ())
            ),
            dialect=row.get("dialect", ""),
            leaks=tuple(row.get("leaks", ())),
            kind=row.get("kind", "post"),
            edited=row.get("edited", False),
            source=row.get("source"),
            marker=row.get("marker", ""),
            attempts=row.get("attempts", 0),
            next_try=row.get("next_try", 0.0),
            error=row.get("error", ""),
            ref=row.get("ref", ""),
            url=row.get("url", ""),
            forced=row.get("forced", False),
            extra={key: value for key, value in row.items() if key not in _KNOWN},
        )

    def to_row(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "sequence": self.sequence,
            "title": self.title,
            "generated": self.generated,
            "text": self.text,
            "player_spans": [list(span) for span in self.player_spans],
            "dialect": self.dialect,
            "leaks": list(self.leaks),
            "kind": self.kind,
            "edited": self.edited,
            "status": self.status,
            "source": self.source,
            "marker": self.marker,
            "attempts": self.attempts,
            "next_try": self.next_try,
            "error": self.error,
            "ref": self.ref,
            "url": self.url,
            "forced": self.forced,
            **self.extra,
        }


_KNOWN = frozenset(DraftRow.__dataclass_fields__) - {"extra"}


class DraftBook:
    def __init__(self, game_file: GameFile):
        self.file = game_file
        self.drafts = game_file.db.table("drafts", cache_size=0)
        self.forum = game_file.db.table("forum", cache_size=0)

    # ------------------------------------------------------------------ per-game forum facts
    def game_settings(self) -> dict[str, Any]:
        docs = self.forum.all()
        return dict(docs[0]) if docs else {}

    def update_game_settings(self, fields: dict[str, Any]) -> dict[str, Any]:
        docs = self.forum.all()
        if docs:
            self.forum.update(fields, doc_ids=[docs[0].doc_id])
        else:
            self.forum.insert(dict(fields))
        return self.game_settings()

    # ------------------------------------------------------------------ drafts
    def thread_address(self) -> str:
        """Where the game's thread is read: the address of the first post pbp published
        in it ("" before any), which mail gives a player to tap."""
        return next(
            (draft.url for draft in self.all() if draft.status == PUBLISHED and draft.url), ""
        )

    def all(self) -> list[DraftRow]:
        return sorted(
            (DraftRow.from_row(row) for row in self.drafts.all()), key=lambda d: d.sequence
        )

    def get(self, phase: str) -> DraftRow | None:
        doc = self.drafts.get(Query().phase == phase)
        return DraftRow.from_row(doc) if doc else None

    def latest(self) -> DraftRow | None:
        rows = self.all()
        return rows[-1] if rows else None

    def unpublished(self) -> list[DraftRow]:
        """Drafts still to publish, in order (withdrawn ones never will be)."""
        return [draft for draft in self.all() if draft.status not in (PUBLISHED, WITHDRAWN)]

    def withdraw_tallies(self, phase: str) -> None:
        """Withdraw the running tallies of `phase` that nobody approved: a newer count, or
        the phase's own post, replaces them (an approved one still goes out, in order)."""
        for draft in self.all():
            if (
                draft.kind == "tally"
                and draft.phase.startswith(f"{phase}/tally")
                and draft.is_draft
            ):
                self.update(draft.phase, {"status": WITHDRAWN})

    def withdraw_opening(self) -> None:
        """Withdraw the opening post if nobody approved it: a later post went out first."""
        draft = self.get(OPENING)
        if draft and draft.is_draft:
            self.update("opening", {"status": WITHDRAWN})

    def save_generated(
        self,
        phase: str,
        title: str,
        text: str,
        player_spans: Iterable[Sequence[int]],
        dialect: str,
        leaks: list[str],
        kind: str = "post",
        source: Mapping[str, Any] | None = None,
    ) -> DraftRow:
        """Store a freshly generated draft (or regenerate one nobody approved or edited).
        `source` is what it was rendered from (template and facts), kept while the draft
        waits for the host so that a change of dialect can render it again; approving
        drops it."""
        existing = self.get(phase)
        fields = {
            "title": title,
            "generated": text,
            "text": text,
            "player_spans": [list(span) for span in player_spans],
            "dialect": dialect,
            "leaks": leaks,
            "kind": kind,
            "edited": False,
            "status": DRAFT,
            "source": source,
        }
        if existing:
            if not existing.is_draft or existing.edited:
                return existing
            return self.update(phase, fields)
        sequence = max((d["sequence"] for d in self.drafts.all()), default=0) + 1
        row = {
            "phase": phase,
            "sequence": sequence,
            **fields,
            "marker": "",
            "attempts": 0,
            "next_try": 0.0,
            "error": "",
            "ref": "",
            "url": "",
            "forced": False,
        }
        self.drafts.insert(row)
        return DraftRow.from_row(row)

    def update(self, phase: str, fields: dict[str, Any]) -> DraftRow:
        """Change the stored keys `fields` of the draft of `phase`, which exists; the draft
        as it is now."""
        self.drafts.update(fields, Query().phase == phase)
        draft = self.get(phase)
        if draft is None:
            raise KeyError(f"no draft for {phase!r}")
        return draft
