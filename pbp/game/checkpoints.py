"""Checkpoints of a game's history, for `pbp replay` (pbp.host.replay).

After the game starts, after each resolution and after each host kill, the game record
keeps the SHA-256 of the state's canonical JSON under the step's label. A digest is small
(the game file stays small, and it is rewritten whole on every write), yet lets a replay
name the first step at which the stored game and the replay part ways.
"""

from __future__ import annotations

import hashlib
from typing import Any, Sequence

from engine.core import canonical_json
from pbp.game.record_parts import StoredCheckpoint


def state_digest(state_json: Any) -> str:
    """The SHA-256 of a state's canonical JSON: what a checkpoint stores."""
    return hashlib.sha256(canonical_json(state_json).encode("utf-8")).hexdigest()


def with_checkpoint(
    checkpoints: Sequence[StoredCheckpoint], label: str, state_json: Any
) -> tuple[StoredCheckpoint, ...]:
    """The record's checkpoints with one more: the digest of the state after `label`
    (labels as pbp.host.replay.Step.describe writes them: `start`, `resolution of T1-movement`,
    `host kill of Alice in D2-vote`)."""
    return (*checkpoints, StoredCheckpoint(label, state_digest(state_json)))
