"""`scripts/check-architecture` fails on each kind of planted violation and passes a tree
that keeps the rules (docs/design.md: The one rule of the architecture)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check-architecture"

# A small tree in the declared layers: the commands over a feature over the game.
CLEAN_TREE = {
    "pbp/__init__.py": "",
    "pbp/commands/__init__.py": "import engine\nfrom pbp.forum import post\n",
    "pbp/forum/__init__.py": "",
    "pbp/forum/post.py": "from pbp.game import status\n",
    "pbp/host/__init__.py": "",
    "pbp/game/__init__.py": "",
    "pbp/game/status.py": "from engine.core import Ruleset\nKIND = 'toy game'\n",
    "engine/__init__.py": "from engine.toy import rules\n",
    "engine/core.py": "class Ruleset: ...\n",
    "engine/toy/__init__.py": "",
    "engine/toy/rules.py": "from engine.core import Ruleset\n",
    "engine/other/__init__.py": "",
    "engine/other/rules.py": "from engine.core import Ruleset\n",
}


def check(tmp_path: Path, changes: dict[str, str]) -> subprocess.CompletedProcess:
    for relative, text in {**CLEAN_TREE, **changes}.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return subprocess.run([sys.executable, str(SCRIPT), "--root", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)


def test_a_tree_that_keeps_the_rules_passes(tmp_path):
    done = check(tmp_path, {})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no import cycle, layers kept, no package cycle" in done.stdout


def test_an_import_cycle_in_the_shell_fails_even_through_a_function_level_import(tmp_path):
    done = check(tmp_path, {"pbp/game/status.py": "def late():\n    from pbp.game import clock\n",
                            "pbp/game/clock.py": "from pbp.game import status\n"})
    assert done.returncode == 1
    assert "import cycle in pbp: pbp.game.clock <-> pbp.game.status" in done.stdout


def test_an_import_from_a_lower_layer_to_a_higher_one_fails_even_inside_a_function(tmp_path):
    done = check(tmp_path, {"pbp/game/status.py": "def late():\n    from pbp.forum import post\n"})
    assert done.returncode == 1
    assert "layers: pbp.game imports pbp.forum, a layer above it: pbp.game.status -> pbp.forum.post" in done.stdout


def test_an_import_between_independent_siblings_of_a_layer_fails(tmp_path):
    done = check(tmp_path, {"pbp/host/__init__.py": "from pbp.forum import post\n"})
    assert done.returncode == 1
    assert "layers: pbp.host imports pbp.forum, its independent sibling: pbp.host -> pbp.forum.post" in done.stdout


def test_a_package_in_no_declared_layer_fails(tmp_path):
    done = check(tmp_path, {"pbp/extras/__init__.py": "from pbp.game import status\n"})
    assert done.returncode == 1
    assert "layers: pbp.extras sits in no layer" in done.stdout


def test_a_cycle_between_packages_fails_though_no_module_cycle_exists(tmp_path):
    """engine.names reads a ruleset's words and the ruleset's rules read engine.names: no
    module imports itself back, but the two packages lean on each other."""
    done = check(tmp_path, {"engine/names.py": "import engine.toy.words\n",
                            "engine/toy/words.py": "WORDS = ()\n",
                            "engine/toy/rules.py": "from engine.core import Ruleset\nimport engine.names\n"})
    assert done.returncode == 1
    assert "package cycle: engine.names <-> engine.toy" in done.stdout
    assert "import cycle" not in done.stdout


def test_the_shell_importing_a_ruleset_module_fails(tmp_path):
    done = check(tmp_path, {"pbp/game/status.py": "from engine.toy.rules import Ruleset\n"})
    assert done.returncode == 1
    assert "the shell reaches past the registry: pbp.game.status imports engine.toy.rules" in done.stdout


def test_a_ruleset_importing_another_fails(tmp_path):
    done = check(tmp_path, {"engine/other/rules.py": "from engine.toy.rules import Ruleset\n"})
    assert done.returncode == 1
    assert "a ruleset imports another: engine.other.rules imports engine.toy.rules" in done.stdout


def test_the_engine_importing_the_registry_fails(tmp_path):
    """A helper every ruleset uses that asked the registry would load every ruleset."""
    done = check(tmp_path, {"engine/names.py": "import engine\n"})
    assert done.returncode == 1
    assert "the engine imports the registry, which loads every ruleset: engine.names imports engine" in done.stdout


def test_the_shell_branching_on_a_ruleset_name_fails(tmp_path):
    done = check(tmp_path, {"pbp/game/status.py": "def kind(name):\n    return 2 if name == 'Toy' else 1\n",
                            "pbp/forum/post.py": "from pbp.game import status\nPLAYERS = {'other': 3}\n"})
    assert done.returncode == 1
    assert "the shell knows a ruleset: pbp/game/status.py:2 branches on the ruleset name 'Toy'" in done.stdout
    assert "the shell knows a ruleset: pbp/forum/post.py:2 branches on the ruleset name 'other'" in done.stdout


def test_the_contract_importing_a_ruleset_fails(tmp_path):
    done = check(tmp_path, {"engine/core.py": "import engine.toy.rules\nclass Ruleset: ...\n"})
    assert done.returncode == 1
    assert "the contract imports a ruleset: engine.core imports engine.toy.rules" in done.stdout


def test_the_engine_importing_the_shell_fails(tmp_path):
    done = check(tmp_path, {"engine/toy/rules.py": "import pbp.game.status\n"})
    assert done.returncode == 1
    assert "layers: engine imports pbp.game, a layer above it: engine.toy.rules -> pbp.game.status" in done.stdout
