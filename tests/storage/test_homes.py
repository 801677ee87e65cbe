"""Where each piece of a game lives (docs/design.md: Storage — where each piece of a game
lives): the decode memo beside the game file, the host token in the game record, the
channels' messages in the journal."""
from __future__ import annotations

from pbp.game.decode_memo import memo_of
from pbp.game.stored import load
from pbp.storage.datafolder import GameFile
from tests.forum.conftest import host_game, stored  # noqa: F401  (the fixture)


def test_the_game_file_only_reads_and_writes_and_the_decode_memo_lives_beside_it(host_game):
    moderator, game = stored(host_game)
    with moderator:
        file = moderator.folder.game("inf1")
        first = load(moderator, "inf1")
        assert not {"decoded", "loaded"} & set(vars(file)), "the decode memo hangs on the game file"
        assert not {"decoded", "loaded"} & set(dir(GameFile))
        memo = memo_of(file)
        assert memo.loaded is first and memo.decoded is not None
        assert memo.decoded[1] is first.state
        assert load(moderator, "inf1") is first  # unchanged record: handed out again, not decoded again
