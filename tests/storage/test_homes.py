"""Where each piece of a game lives (docs/design.md: Storage — where each piece of a game
lives): the decode memo beside the game file, the host token in the game record, the
channels' messages in the journal."""
from __future__ import annotations

import json

from pbp.composition import ForumModerator
from pbp.settings import load_settings
from pbp.storage.host_token import host_token
from tests.upgrades.site import RELEASES, unpack
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


def _forum_host_tokens(data):
    found = {}
    for path in sorted((data / "games").glob("*.json")):
        for row in json.loads(path.read_text())["forum"].values():
            if row.get("host_token"):
                found[path.stem] = row["host_token"]
    return found


def test_a_game_started_before_the_host_token_moved_keeps_its_token_after_the_upgrade(tmp_path):
    """The token the old release mailed the host (in the NPC's form) is the one accepted."""
    release = RELEASES[0]
    settings_path = unpack(release, tmp_path)
    settings = load_settings(str(settings_path))
    old = _forum_host_tokens(settings.data)
    assert old.get("inf1")  # the old release kept it in the forum's table
    with ForumModerator(settings) as moderator:  # the writer upgrades the folder
        game = load(moderator, "inf1")
        assert host_token(game.file) == old["inf1"]
        assert game.record.host_token == old["inf1"]
        queued = [row for row in game.file.outbox.all() if row["kind"] == "npc-welcome" or row["address"] == settings.host_address]
        assert any(old["inf1"] in row["body"] for row in queued)  # the form the host holds
    assert _forum_host_tokens(settings.data) == {}  # no second home left behind
