"""The drafts of one game, kept in the game's own file (tables `drafts` and `forum`; the host token is in the game's record, pbp.storage.host_token), so a
draft is written in the same durable write as the resolution it reports (docs/design.md: Public posts; host
review, Publishing).

A draft is one row per (game, phase): status `draft` → `approved` → `published` (or
`withdrawn`: a running tally nobody approved before its vote closed, or an opening post
nobody approved before a later post went out; never published), its
generated text, the current text (the host's edit, if any) with an `edited` flag, the
leaks found at the last check, and the publishing record (marker, attempts, next try,
last error, where it went). A new draft for a phase that is already approved or published
never overwrites it.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from tinydb import Query

from pbp.storage.datafolder import GameFile

DRAFT, APPROVED, PUBLISHED, WITHDRAWN = "draft", "approved", "published", "withdrawn"
# Kinds of draft that hold nothing up while the host has not approved them: a running
# count, and the opening post (a host may write their own).
OPTIONAL_KINDS = ("tally", "opening")
OPENING = "opening"  # the key (and kind) of a game's opening post


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
            (
                str(row["url"])
                for row in self.all()
                if row["status"] == PUBLISHED and row.get("url")
            ),
            "",
        )

    def all(self) -> list[dict[str, Any]]:
        return sorted((dict(d) for d in self.drafts.all()), key=lambda d: d["sequence"])

    def get(self, phase: str) -> dict[str, Any] | None:
        doc = self.drafts.get(Query().phase == phase)
        return dict(doc) if doc else None

    def latest(self) -> dict[str, Any] | None:
        rows = self.all()
        return rows[-1] if rows else None

    def unpublished(self) -> list[dict[str, Any]]:
        """Drafts still to publish, in order (withdrawn ones never will be)."""
        return [row for row in self.all() if row["status"] not in (PUBLISHED, WITHDRAWN)]

    def withdraw_tallies(self, phase: str) -> None:
        """Withdraw the running tallies of `phase` that nobody approved: a newer count, or
        the phase's own post, replaces them (an approved one still goes out, in order)."""
        for row in self.all():
            if (
                row.get("kind") == "tally"
                and row["phase"].startswith(f"{phase}/tally")
                and row["status"] == DRAFT
            ):
                self.update(row["phase"], {"status": WITHDRAWN})

    def withdraw_opening(self) -> None:
        """Withdraw the opening post if nobody approved it: a later post went out first."""
        row = self.get("opening")
        if row and row["status"] == DRAFT:
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
        source: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
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
            if existing["status"] != DRAFT or existing["edited"]:
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
        return row

    def update(self, phase: str, fields: dict[str, Any]) -> dict[str, Any]:
        """Change the draft of `phase`, which exists; its row as it is now."""
        self.drafts.update(fields, Query().phase == phase)
        row = self.get(phase)
        if row is None:
            raise KeyError(f"no draft for {phase!r}")
        return row
