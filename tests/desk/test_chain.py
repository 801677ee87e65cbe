"""The desk's chain is declared once (docs/design.md: The desk's chain): the handlers run in
the order `CHAIN` lists them, and the design document lists the same names in that order."""

from __future__ import annotations

import re
from pathlib import Path

from pbp.desk.chain import CHAIN

DESIGN = Path(__file__).resolve().parents[2] / "docs" / "design.md"


def test_the_design_lists_the_chains_handlers_in_their_order():
    section = (
        DESIGN.read_text(encoding="utf-8").split("### The desk's chain", 1)[1].split("\n#", 1)[0]
    )
    listed = re.findall(r"^\d+\. `([^`]+)`", section, re.MULTILINE)
    assert listed == [handler.name for handler in CHAIN]


def test_a_players_mail_is_the_last_link_and_a_seen_mail_the_first():
    names = [handler.name for handler in CHAIN]
    assert names[0] == "already handled" and names[-1] == "game mail"
    assert names.index("sign-up") < names.index("stranger")  # sign-ups come from anyone
    assert len(set(names)) == len(names)
