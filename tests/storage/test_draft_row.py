"""A draft read past the storage edge is a `DraftRow` (docs/design.md: Typed rows): what the
table `drafts` stores, in the earlier releases' fixture folders and in a game of today,
comes back unchanged through `from_row` and `to_row`, so typing the rows changed nothing on
disk, and the readers (publishing, review, `pbp status`, the web desk) read its fields."""

from __future__ import annotations

import json

import pytest

from pbp.game.create import create_game
from pbp.storage.drafts import APPROVED, DRAFT, DraftBook, DraftRow
from tests.fixtures.harness import ROSTER
from tests.upgrades.site import RELEASES, unpack


@pytest.mark.parametrize("release", RELEASES)
def test_every_draft_of_the_fixtures_comes_back_unchanged(release, tmp_path):
    data = unpack(release, tmp_path).parent / "data"
    rows = [
        row
        for path in sorted((data / "games").glob("*.json"))
        for row in json.loads(path.read_text()).get("drafts", {}).values()
    ]
    assert rows or release < "55e2fb0"
    for row in rows:
        assert DraftRow.from_row(row).to_row() == row


def test_a_stored_draft_reads_as_its_fields_and_writes_back_the_same_row(moderator):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    file = moderator.folder.game(game.id)
    book = DraftBook(file)
    with file.transaction():
        made = book.save_generated(
            "D1-vote", "Day 1", "Ann votes.\n", [(0, 3)], "markdown", [], source={"t": "post"}
        )
        approved = book.update("D1-vote", {"status": APPROVED, "marker": "m1", "later": 7})
    assert made.status == DRAFT and made.player_spans == ((0, 3),) and made.leaks == ()
    assert approved.approved and approved.marker == "m1" and approved.extra == {"later": 7}
    stored = [dict(row) for row in file.db.table("drafts").all()]
    assert "later" in stored[-1]  # a key it does not know is kept
    assert [DraftRow.from_row(row).to_row() for row in stored] == stored
    assert book.get("D1-vote") == approved and book.unpublished()[-1] == approved
