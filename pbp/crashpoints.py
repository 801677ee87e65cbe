"""Named points where a test can kill pbp to prove crash safety (docs/design.md: Reliability
rules; crash tests at "after spooling, after the commit before the IMAP move, in the middle
of sending a phase's reports, in the middle of a resolution").

`PBP_CRASH_AT=<name>` in the environment makes `crash_point(<name>)` SIGKILL the process:
no cleanup, no flush, exactly like a power cut. Names in use: `after-spool`,
`after-commit`, `mid-send`, `mid-resolution`, `forum-after-post` (the forum
accepted a post that pbp has not recorded yet), `reader-after-part` (the child that reads
a large poll ahead, pbp.mail.ingest.read_ahead, dies after handing over its first part).
"""

from __future__ import annotations

import os
import signal


def crash_point(name: str) -> None:
    if os.environ.get("PBP_CRASH_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)
