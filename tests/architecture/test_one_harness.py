"""One test harness (docs/design.md: One test harness): a test builds its data folder and
settings with tests/fixtures/harness.py, never with a builder of its own.

The rule, on the source of every module under tests/: no module but the harness holds the
text of a settings file, that is a string literal or f-string with a line that is exactly
`[pbp]` (the section every settings file has), outside docstrings. A module that wants a
host's folder asks the harness for a `Ground` (`write_settings` takes the sections as
mappings) instead of writing one more `[pbp]` template.

The modules that wrote their own settings before the harness existed are listed in
`NOT_YET_ON_THE_HARNESS` and may keep doing so until they move; the list only shrinks: a
listed module that no longer writes settings text is reported, so that it is struck off.
`READS_SETTINGS_TEXT` names the modules whose subject is the settings file itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HARNESS = "tests/fixtures/harness.py"
# Their subject is the settings file: its reading, its documented example, an old data
# folder's settings as a release wrote them.
READS_SETTINGS_TEXT = frozenset(
    {
        "tests/test_settings.py",  # how pbp reads a settings file, error by error
        "tests/docs/test_reference.py",  # the settings reference against the example file
        "tests/upgrades/make_fixture.py",  # an older release's data folder, byte for byte
        "tests/architecture/test_one_harness.py",  # this rule and its planted violations
    }
)
# Each wrote its own settings before the harness (the forum's and the desk's tests, whose
# folders other work was changing when the harness came); each move onto it strikes one off.
NOT_YET_ON_THE_HARNESS = frozenset(
    {
        "tests/forum/test_good_host_wording.py",
        "tests/forum/test_host_like_posts.py",
        "tests/forum/test_running_counts.py",
        "tests/forum/test_tally_secrecy.py",
    }
)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
        ):
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def settings_text_lines(source: str) -> list[int]:
    """The lines where a module's code (not its docstrings) holds a settings file's text."""
    tree = ast.parse(source)
    skipped = _docstrings(tree)
    return sorted(
        {
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skipped
            and "[pbp]" in (line.strip() for line in node.value.splitlines())
        }
    )


def settings_builders(
    root: Path,
    waiting: frozenset[str] = NOT_YET_ON_THE_HARNESS,
    exempt: frozenset[str] = READS_SETTINGS_TEXT,
) -> list[str]:
    """Every module under `root`/tests that writes settings text outside the harness, and
    every listed module that no longer does."""
    found, writers = [], set()
    for path in sorted((root / "tests").rglob("*.py")):
        where = path.relative_to(root).as_posix()
        lines = settings_text_lines(path.read_text(encoding="utf-8"))
        if lines:
            writers.add(where)
        if lines and where != HARNESS and where not in waiting | exempt:
            found += [
                f"{where}:{line} writes a settings file of its own; build it with "
                f"{HARNESS} (Ground.write_settings)"
                for line in lines
            ]
    found += [
        f"{where} no longer writes settings text: strike it off the list in {Path(__file__).name}"
        for where in sorted(waiting - writers)
    ]
    return found


def test_no_test_module_builds_settings_outside_the_harness():
    assert settings_builders(ROOT) == []


def plant(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_planted_settings_builder_is_reported_and_the_harness_and_docstrings_are_not(tmp_path):
    root = plant(
        tmp_path,
        {
            HARNESS: 'TEXT = "[pbp]\\ndata = data\\n"\n',
            "tests/home/test_docs.py": '"""Writes\n[pbp]\nas an example."""\n',
            "tests/home/test_own.py": "def make(root, port):\n"
            '    (root / "pbp.ini").write_text(f"[pbp]\\ndata = data\\nport = {port}\\n")\n',
        },
    )
    assert settings_builders(root, frozenset(), frozenset()) == [
        f"tests/home/test_own.py:2 writes a settings file of its own; build it with {HARNESS} (Ground.write_settings)"
    ]


def test_the_list_of_modules_not_yet_on_the_harness_only_shrinks(tmp_path):
    root = plant(
        tmp_path,
        {
            "tests/home/test_moved.py": "from tests.fixtures.harness import Ground\n",
            "tests/home/test_waiting.py": 'TEXT = "[pbp]\\n"\n',
        },
    )
    waiting = frozenset({"tests/home/test_moved.py", "tests/home/test_waiting.py"})
    assert settings_builders(root, waiting, frozenset()) == [
        "tests/home/test_moved.py no longer writes settings text: strike it off the list in test_one_harness.py"
    ]
