"""Using one ruleset never loads another (docs/design.md: Engine contract): a fresh
process that makes, plays and views an Infiltration game, and checks its roster's names
as Infiltration does, has imported no module of Werewolf."""

from __future__ import annotations

import subprocess
import sys
import textwrap

PLAY_INFILTRATION_ALONE = textwrap.dedent("""
    import sys
    import engine
    from engine.core import PlayerSpec
    rules = engine.ruleset("infiltration")
    names = ["Alice", "Bruno", "Chen", "Dana", "Emil", "Fatou", "Goran", "Hana"]
    state = rules.new_game([PlayerSpec(name) for name in names], "isolation", {})
    phase = rules.phase(state)
    rules.view(state, None), rules.view(state, "Alice"), rules.card.phase_words(phase.id)
    rules.resolve(state, {})
    print(sorted(name for name in sys.modules if name.startswith("engine.")))
""")


def test_an_infiltration_game_never_imports_werewolf():
    done = subprocess.run(
        [sys.executable, "-c", PLAY_INFILTRATION_ALONE],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    loaded = done.stdout
    assert "engine.infiltration" in loaded
    assert "werewolf" not in loaded, loaded
