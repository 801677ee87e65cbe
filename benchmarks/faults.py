"""The fault suite as a command: every case of tests/faults (attacks on the real CLI over
a real Dovecot and aiosmtpd, each followed by the shared oracle), with the fuzz and crash
parts at full size, then the totals.

Run: python3 benchmarks/faults.py [--examples 10000] [--kills 50] [-- extra pytest args]

`--examples` mutated mails go through the Maildir ingest (a tenth of them over IMAP);
`--kills` rounds SIGKILL `pbp run` at a seeded random moment during the ingest of 200
mails. It prints: cases run, mails injected, lost, duplicated, leaked, daemon deaths.
Exit status: 0 when every case passed and the last four are 0; 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--examples", type=int, default=10_000, help="mutated mails for the fuzz cases"
    )
    parser.add_argument(
        "--kills", type=int, default=50, help="rounds of SIGKILL during the ingest of 200 mails"
    )
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    options = parser.parse_args(argv)
    os.environ["PBP_FUZZ_EXAMPLES"] = str(options.examples)
    os.environ["PBP_FAULT_KILLS"] = str(options.kills)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(REPO), os.environ.get("PYTHONPATH")])
    )
    sys.path.insert(0, str(REPO))
    os.chdir(REPO)

    import pytest
    from tests.faults.oracle import TOTALS

    status = pytest.main(["-q", "-p", "no:cacheprovider", "tests/faults", *options.pytest_args])
    print(f"cases run        {TOTALS.cases}")
    print(f"mails injected   {TOTALS.injected}")
    print(f"lost             {TOTALS.lost}")
    print(f"duplicated       {TOTALS.duplicated}")
    print(f"leaked           {TOTALS.leaked}")
    print(f"daemon deaths    {TOTALS.deaths}")
    bad = TOTALS.lost + TOTALS.duplicated + TOTALS.leaked + TOTALS.deaths
    return 0 if status == 0 and bad == 0 and TOTALS.cases else 1


if __name__ == "__main__":
    sys.exit(main())
