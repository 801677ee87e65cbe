"""The leak check reads where a ruleset's secrets are from its card (docs/design.md: Public
posts; Engine contract, the ruleset card): a ruleset the shell has never heard of, whose
views keep their secrets under names neither real ruleset uses (the toy Cabal's
`allegiance`, `hideout` and `passphrase`), has them caught in a host's edit all the same."""

from __future__ import annotations

import pytest

from pbp.errors import UserError
from pbp.forum.publishing import review
from pbp.forum.publishing.leaks import leak_check
from pbp.game.create import create_game
from pbp.game.resolution import resolve_phase
from pbp.game.stored import load
from pbp.storage.drafts import DraftBook
from tests.fixtures.harness import ROSTER
from tests.fixtures.toy_ruleset import CABAL_SECRETS

CABALIST = "Alice"  # the alphabetically first player is the cabal's


@pytest.fixture
def game(moderator):
    return create_game(moderator, "cabal", ROSTER, seed="s1")


def test_each_kind_of_secret_under_a_new_field_name_is_caught(game):
    check = leak_check(game)
    found = {
        leak.fact.kind: str(leak)
        for leak in check.check(
            f"{CABALIST} is crimson, through and through.\n"
            f"Someone was seen near {CABAL_SECRETS['hideout']}.\n"
            f"The word at the door is {CABAL_SECRETS['passphrase']}.\n"
        )
    }
    assert found == {
        "personal": f"the draft names {CABALIST}'s allegiance crimson, which is not public "
        f"(line: '{CABALIST} is crimson, through and through.')",
        "place": "the draft names the location the old mill, which is not public "
        "(line: 'Someone was seen near the old mill.')",
        "secret": "the draft holds a secret passphrase (swordfish-42), which is not public",
    }
    # The same words with no one they are about, or apart from the one they are about, tell nothing.
    assert check.check(f"Crimson is a colour.\n{CABALIST} voted.\n") == []


def test_a_host_edit_that_tells_the_toy_rulesets_secret_is_not_approved(moderator, game):
    resolve_phase(moderator, game.id)
    game = load(moderator, game.id)
    (row,) = [row for row in DraftBook(game.file).unpublished() if row.phase == "D1-vote"]
    review.edit(
        game, row.phase, row.text + f"\nPsst: {CABALIST} meets the others at the old mill.\n"
    )
    with pytest.raises(
        UserError, match="fails the leak check: the draft names the location the old mill"
    ):
        review.approve(load(moderator, game.id), row.phase)
    assert DraftBook(game.file).get(row.phase).status == "draft"
