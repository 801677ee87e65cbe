"""`pbp rules <ruleset>` (docs/design.md: Command line): phase kinds, options with their
defaults, roles or classes, and orders, read from the ruleset's card and option table and
the moderator's options, with no settings file needed."""

from __future__ import annotations

import engine
import pytest

from pbp.cli import main
from pbp.game.options import OPTIONS, defaults as option_defaults


def rules_text(ruleset: str, capsys, tmp_path, monkeypatch) -> str:
    monkeypatch.chdir(tmp_path)  # no pbp.ini here
    monkeypatch.delenv("PBP_SETTINGS", raising=False)
    assert main(["rules", ruleset]) == 0
    out, err = capsys.readouterr()
    assert not err
    return out


@pytest.mark.parametrize("ruleset", engine.rulesets())
def test_rules_lists_every_phase_kind_option_role_and_order_of_the_card(
    ruleset, capsys, tmp_path, monkeypatch
):
    text = rules_text(ruleset, capsys, tmp_path, monkeypatch)
    rules = engine.ruleset(ruleset)
    lines = text.splitlines()
    for kind in rules.card.phase_kinds:
        assert any(
            line.split()[:1] == [kind.kind] and kind.label in line for line in lines if line.strip()
        )
    for name in rules.options:
        assert any(line.strip().startswith(f"{name}=") for line in lines)
    defaults = option_defaults(rules.card)  # spectators=dead for Werewolf
    for name in OPTIONS:
        assert any(line.strip().startswith(f"{name}={defaults[name]}") for line in lines)
    for role, side, what in rules.card.roles:
        assert f"  {role}  ({side}): {what}" in lines
    for order in rules.card.orders:
        assert any(order.order in line and line.strip().startswith(order.phases) for line in lines)


def test_infiltration_rules_name_the_npc_classes_and_teams_and_the_defaults(
    capsys, tmp_path, monkeypatch
):
    text = rules_text("infiltration", capsys, tmp_path, monkeypatch)
    assert "  decision  [48h]  each decision phase" in text
    assert (
        "  turn_limit=30  - the game is a draw if turn N's resolution ends without a result; a whole number"
        in text
    )
    assert "  renegade  (NPCs only): guards ignore it like a Sneaker" in text
    assert "team one of green, red, neutral." in text
    assert "The statement of USE VALIDITY <statement>:" in text


def test_werewolf_rules_say_reveal_roles_is_off_by_default(capsys, tmp_path, monkeypatch):
    text = rules_text("werewolf", capsys, tmp_path, monkeypatch)
    assert "  reveal_roles=off  - show a dead player's role; on or off" in text
    assert "Roles (name, who has it, what it does):" in text
