"""Where each piece of a game lives (docs/design.md: Storage — where each piece of a game
lives): the decode memo beside the game file, the host token in the game record, the
channels' messages in the journal."""

from __future__ import annotations

import json

from pbp.composition import ComposedModerator
from pbp.conversations.channels import message_log, sent_on
from pbp.desk import Desk
from pbp.ports import InboundMail, MessageBlock
from pbp.settings import load_settings
from pbp.storage.host_token import host_token
from tests.upgrades.site import RELEASES, unpack
from pbp.game.decode_memo import memo_of
from pbp.game.stored import load
from pbp.storage.datafolder import GameFile
from tests.conversations.test_conversation_refusals import mason_pair, send, table  # noqa: F401  (a fixture)
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
        assert (
            load(moderator, "inf1") is first
        )  # unchanged record: handed out again, not decoded again


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
    with ComposedModerator(settings) as moderator:  # the writer upgrades the folder
        game = load(moderator, "inf1")
        assert host_token(game.file) == old["inf1"]
        assert game.record.host_token == old["inf1"]
        queued = [
            row
            for row in game.file.outbox.all()
            if row["kind"] == "npc-welcome" or row["address"] == settings.host_address
        ]
        assert any(old["inf1"] in row["body"] for row in queued)  # the form the host holds
    assert _forum_host_tokens(settings.data) == {}  # no second home left behind


def _document_stamp(file):
    status = file.path.stat()
    return file.path.read_bytes(), status.st_ino, status.st_mtime_ns


def test_a_relayed_message_is_one_journal_line_and_never_rewrites_the_game_document(table):
    first, second = mason_pair(table)
    send(table, first, "masons", "Settling in.")  # the first mail of an address may note it
    file = load(table, "ww1").file
    before = _document_stamp(file)
    journal = file.path.with_suffix(".journal").stat().st_size
    mails = send(table, first, "masons", "Who do we trust?")
    assert any(row["recipient"] == second and "Who do we trust?" in row["body"] for row in mails)
    file = load(table, "ww1").file
    assert _document_stamp(file) == before, "relaying a message rewrote the game document"
    assert file.path.with_suffix(".journal").stat().st_size > journal
    assert "messages" not in json.loads(file.path.read_text())
    assert [row["text"] for row in message_log(file).all()] == ["Settling in.", "Who do we trust?"]


def test_the_daily_message_cap_counts_the_journal_by_day(table):
    first, _ = mason_pair(table)
    game = load(table, "ww1")
    blocks = [
        MessageBlock("ww1", "masons", game.token(first), f"note {n}") for n in range(3)
    ]  # the cap: 3
    Desk(table).receive(
        InboundMail(
            key="cap1",
            sha256="cap1",
            sender=f"{first.lower()}@example.org",
            message_id="<cap1@example.org>",
            subject="m",
            messages=tuple(blocks),
        )
    )
    file = load(table, "ww1").file
    day = table.clock().date().isoformat()
    assert sent_on(file, first, day) == 3 and len(file.messages.where("day", day)) == 3
    (refusal,) = [
        row for row in send(table, first, "masons", "one more") if row["recipient"] == first
    ]
    assert "NOT sent" in refusal["subject"]
    assert len(message_log(load(table, "ww1").file)) == 3


def test_the_upgrade_moves_the_messages_a_document_held_into_the_journal(tmp_path):
    settings_path = unpack(RELEASES[0], tmp_path)
    settings = load_settings(str(settings_path))
    path = settings.data / "games" / "ww1.json"
    document = json.loads(path.read_text())
    old = {
        "1": {
            "channel": "wolves",
            "phase": "N1",
            "sender": "Alice",
            "player": "Alice",
            "text": "Bite Chen?",
            "received": "2026-03-02T09:00:00+00:00",
            "recipients": ["Bruno"],
            "cause": "",
        },
        "2": {
            "channel": "host",
            "phase": "N1",
            "sender": "host",
            "player": "Alice",
            "text": "Noted.",
            "received": "2026-03-03T10:00:00+00:00",
            "recipients": ["Alice"],
            "cause": "",
        },
    }
    document["messages"] = old  # as a release before data format 3 kept them
    path.write_text(json.dumps(document))
    with ComposedModerator(settings) as moderator:  # the writer upgrades the folder
        file = load(moderator, "ww1").file
        assert [(row.doc_id, row["text"], row["day"]) for row in message_log(file).all()] == [
            (1, "Bite Chen?", "2026-03-02"),
            (2, "Noted.", "2026-03-03"),
        ]
        assert sent_on(file, "Alice", "2026-03-02") == 1
    assert "messages" not in json.loads(path.read_text())
    assert (
        json.loads((settings.data / "upgrades" / "format-1" / "games" / "ww1.json").read_text())[
            "messages"
        ]
        == old
    )
