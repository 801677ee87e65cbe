"""Typed rows keep the stored format (docs/design.md: Typed rows): every game
record and sign-up record the earlier releases' fixture folders hold reads into its typed
value and writes back as the very same JSON, and the record's parts (paused clock,
checkpoints, host's log, result) and a sign-up record's entries and requests are typed
values, not dicts."""

from __future__ import annotations

import json

import pytest

from engine.core import Result
from pbp.game.record import GameRecord
from pbp.game.record_parts import HostAction, PausedClock, StoredCheckpoint
from pbp.storage.signup_record import PendingRequest, SignupEntry, SignupRecord
from tests.upgrades.site import RELEASES, unpack


def stored(path):
    return json.loads(path.read_text())["game"]["1"]


@pytest.mark.parametrize("release", RELEASES)
def test_every_stored_record_of_the_fixtures_reads_and_writes_back_unchanged(release, tmp_path):
    data = unpack(release, tmp_path).parent / "data"
    games, signups = (
        sorted((data / "games").glob("*.json")),
        sorted((data / "signups").glob("*.json")),
    )
    assert games and signups
    for path in games:
        document = stored(path)
        record = GameRecord.from_json(document)
        assert record.to_json() == document, path.name
        assert (
            all(isinstance(c, StoredCheckpoint) for c in record.checkpoints) and record.checkpoints
        )
        assert all(isinstance(a, HostAction) for a in record.host_actions)
        assert record.result is None or isinstance(record.result, Result)
        assert all(isinstance(r, PendingRequest) for r in record.watch_pending.values())
    for path in signups:
        document = stored(path)
        record = SignupRecord.from_json(document)
        assert record.to_json() == document, path.name
        assert all(isinstance(e, SignupEntry) for e in record.entries)


def test_the_records_parts_write_what_they_read():
    paused = {"remaining_seconds": 3599.25, "since": "2026-12-07T11:39:20Z"}
    kill = {
        "kind": "host_kill",
        "phase": "D1-vote",
        "player": "Bruno",
        "reason": "",
        "at": "2026-12-07T11:40:00Z",
    }
    swap = {
        "kind": "substitute",
        "phase": "D1-vote",
        "player": "Alice",
        "played_by": "Zed",
        "replaced": "Alice",
        "at": "2026-12-07T11:41:00Z",
        "note": "a key a later release wrote",
    }
    assert PausedClock.from_json(paused).to_json() == paused
    assert PausedClock.from_json(paused).remaining_seconds == 3599.25
    assert HostAction.from_json(kill).to_json() == kill and HostAction.from_json(kill).reason == ""
    assert (
        HostAction.from_json(swap).to_json() == swap
        and HostAction.from_json(swap).played_by == "Zed"
    )
    assert StoredCheckpoint.from_json({"label": "start", "digest": "ab"}).to_json() == {
        "label": "start",
        "digest": "ab",
    }
    watch = {
        "action": "watch",
        "email": "fan@x.example",
        "name": "",
        "created": "2026-12-07T11:39:20Z",
    }
    join = {
        **watch,
        "action": "join",
        "name": "Ann",
        "timezone": "Europe/Berlin",
        "forum_name": "ann_k",
    }
    assert (
        PendingRequest.from_json(watch).to_json() == watch
        and PendingRequest.from_json(join).to_json() == join
    )
