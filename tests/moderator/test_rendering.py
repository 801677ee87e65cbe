"""Mail templates (docs/design.md: Outbox — "Mail text comes from Jinja templates in `templates/`
… StrictUndefined"): compiled once, and re-read after `refresh` when the host edits them."""
from __future__ import annotations

import os

import pytest
from jinja2 import UndefinedError

from pbp.rendering import Renderer


def write(path, text, stamp):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, (stamp, stamp))  # a distinct modification time, however fast the test runs


def test_an_edited_template_is_used_after_a_refresh(tmp_path):
    """`pbp run` keeps one renderer (no stat per mail rendered) and refreshes it each cycle."""
    template = tmp_path / "mail" / "notice.j2"
    write(template, "Subject: Old\n\nHello {{ player }}.\n", 1_000_000)
    renderer = Renderer(tmp_path)
    assert renderer.render("notice", "werewolf", player="Alice").subject == "Old"
    write(template, "Subject: New\n\nHi {{ player }}.\n", 2_000_000)
    assert renderer.render("notice", "werewolf", player="Alice").subject == "Old"
    renderer.refresh()
    assert renderer.render("notice", "werewolf", player="Alice").body == "Hi Alice.\n"
    own = tmp_path / "werewolf" / "mail" / "notice.j2"  # a ruleset's own wording, added later
    write(own, "Subject: Wolves\n\nAwoo {{ player }}.\n", 3_000_000)
    renderer.refresh()
    assert renderer.render("notice", "werewolf", player="Alice").subject == "Wolves"


def test_a_template_asking_for_a_fact_it_was_not_given_fails(tmp_path):
    """StrictUndefined: a template never prints an empty string for a missing fact."""
    write(tmp_path / "mail" / "notice.j2", "Subject: x\n\n{{ state.roles }}\n", 1_000_000)
    with pytest.raises(UndefinedError):
        Renderer(tmp_path).render("notice", "werewolf", player="Alice")
