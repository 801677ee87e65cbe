"""Every verdict the code hands over is worded by a macro of templates/mail/_verdicts.j2
(docs/design.md: The desk's chain): a kind named in pbp/ with no macro would fail only when
that mail came."""

from __future__ import annotations

import re
from pathlib import Path

from pbp.release import templates_folder
from pbp.render.renderer import Renderer
from pbp.render.verdicts import Accepted, Note, Refused

PBP = Path(__file__).resolve().parents[2] / "pbp"
# Kinds as the code names them: Accepted("kind", …), a sign-up refusal _refusal(reason, "kind", …),
# and a channel refusal's kind returned by conversations.judge._channel.
_KINDS = (
    re.compile(r'\b(?:Accepted|Refused|Note)\(\s*"(\w+)"'),
    re.compile(r'\b_refusal\(\s*"[^"]*",\s*"(\w+)"'),
    re.compile(r'return "", "(\w+)"'),
)


def kinds_in_code() -> set[str]:
    return {
        kind
        for path in PBP.rglob("*.py")
        for pattern in _KINDS
        for kind in pattern.findall(path.read_text(encoding="utf-8"))
    }


def test_every_kind_the_code_names_has_its_macro():
    macros = set(
        re.findall(
            r"\{%-?\s*macro (\w+)\(",
            (templates_folder() / "mail" / "_verdicts.j2").read_text("utf-8"),
        )
    )
    kinds = kinds_in_code()
    assert {
        "orders_accepted",
        "wrong_token",
        "joined",
        "bounced",
        "dead_writer",
    } <= kinds  # the patterns find them
    assert kinds <= macros, f"no macro for {sorted(kinds - macros)}"


def test_a_verdict_is_its_facts_and_a_template_reads_them_by_name():
    renderer = Renderer()
    refused = Refused("no_token", block_game="ww1", block_phase="N1")
    assert (
        refused == Refused("no_token", block_game="ww1", block_phase="N1") != Accepted("no_token")
    )
    assert renderer.word(refused) == (
        "Your block for ww1 N1 was not accepted: it has no TOKEN line. Copy the "
        "block from your latest form, TOKEN line included."
    )
    assert renderer.word(Note("free_text", game_id="ww1")).startswith("Only blocks are read")
