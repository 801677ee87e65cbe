"""What `pbp run` tells `pbp status` about itself: `<data>/daemon.json`, written (atomically,
under the writer lock) at the end of each cycle, read without the lock.

It holds the daemon's process id, when its last cycle ran and how it ended, when it will
next wake up and why, and how the public-thread watch last went, so a failing
watch or a failing cycle is visible to the host and not only in the daemon's log.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pbp.durable import write_atomically
from pbp.timezones import render_timestamp

FILE_NAME = "daemon.json"


def write_state(data: Path, state: dict[str, Any]) -> None:
    """Call only while holding the data folder's writer lock."""
    write_atomically(Path(data) / FILE_NAME, json.dumps(state, sort_keys=True).encode("utf-8"))


def read_state(data: Path) -> dict[str, Any] | None:
    try:
        state: dict[str, Any] = json.loads((Path(data) / FILE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return state


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process with that id: it exists
        return True
    return True


def is_running(state: dict[str, Any] | None) -> bool:
    """Whether the daemon that wrote `state` runs still: it did not say it stopped, and its
    process lives."""
    return state is not None and not state.get("stopped") and _alive(int(state.get("pid", 0)))


def _when(text: str | None) -> str:
    return render_timestamp(text) if text else "never"


def status_lines(data: Path) -> list[str]:
    """The lines `pbp status` shows about `pbp run` (none if it never ran here)."""
    state = read_state(data)
    if not state:
        return []
    if not is_running(state):
        return [f"pbp run: not running (last cycle {_when(state.get('last_cycle'))})"]
    lines = [
        f"pbp run: running (process {state['pid']}), last cycle {_when(state.get('last_cycle'))}, "
        f"next wake-up {_when(state.get('next_wake'))}"
        + (f" ({state['next_reason']})" if state.get("next_reason") else "")
    ]
    if state.get("last_error"):
        lines.append(f"  LAST CYCLE FAILED: {state['last_error']}")
    watch = state.get("watch")
    if watch:
        if watch.get("error"):
            lines.append(
                f"  thread watch FAILING since {_when(watch.get('failing_since'))}:"
                f" {watch['error']}"
            )
        else:
            lines.append(
                f"  thread watch: last read {_when(watch.get('last_ok'))}, "
                f"{watch.get('warnings', 0)} warning(s) so far"
            )
    return lines
