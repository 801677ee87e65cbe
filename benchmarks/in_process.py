"""`quiet_pbp`: a pbp command run in the benchmark's own process, the one copy every
benchmark that sets up a data folder through pbp's commands uses (storage, ingest,
backup, and through benchmarks/sending_setup.py dispatch, deadline and startup)."""

from __future__ import annotations

import contextlib
import io

from pbp import cli


def quiet_pbp(*argv: str) -> None:
    """Run a pbp command in this process; its chatter is not the benchmark's output."""
    captured_out, captured_err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(captured_out), contextlib.redirect_stderr(captured_err):
        status = cli.main(list(argv))
    if status != 0:
        raise RuntimeError(
            f"pbp {' '.join(argv)} failed: {captured_out.getvalue()}{captured_err.getvalue()}"
        )
