"""The conformance suites are tied to the rules they test (docs/rules/*.md: Conformance
suite): every numbered scenario names its rule section at the head of its docstring, case
ids are unique within a ruleset, and each rules file lists its sections with their cases, so
a reader goes from a rule to its tests and back.

    python3 -m tests.architecture.test_conformance_index   # prints both indexes
"""

from __future__ import annotations

import ast
import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("infiltration", "werewolf")
CASE = re.compile(r"test_([a-z]\d{3}[a-z]?)_")
# "Combat §2 (b): …", "Alert 1: …", "Lynch, phantom votes (option): …" all test "Combat",
# "Alert", "Lynch": the section is the label up to its first qualifier.
QUALIFIER = re.compile(r" §|\s*\(|, |; | / |=| \d")
INDEX_ROW = re.compile(r"^\| (?P<section>[^|]+?) \| (?P<cases>[a-z0-9 ]+?) \|$")


def cases(ruleset: str) -> list[tuple[str, str]]:
    """(case id, docstring) of every numbered scenario of a ruleset's conformance suite."""
    found = []
    for path in sorted((ROOT / "tests" / ruleset).glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and (match := CASE.match(node.name)):
                found.append((match.group(1), ast.get_docstring(node) or ""))
    return found


def section_of(docstring: str) -> str | None:
    label = re.match(r"([^:\"]{1,60}?):", docstring.replace("\n", " "))
    return QUALIFIER.split(label.group(1))[0].strip() if label else None


def index_of_tests(ruleset: str) -> dict[str, list[str]]:
    index: dict[str, list[str]] = defaultdict(list)
    for case, docstring in cases(ruleset):
        index[section_of(docstring) or "(no section)"].append(case)
    return {section: sorted(ids) for section, ids in sorted(index.items())}


def index_in_rules(ruleset: str) -> dict[str, list[str]]:
    text = (ROOT / "docs" / "rules" / f"{ruleset}.md").read_text()
    part = text.split("## Conformance suite", 1)[-1].split("\n## ", 1)[0]
    return {
        row["section"]: sorted(row["cases"].split())
        for line in part.splitlines()
        if (row := INDEX_ROW.match(line))
    }


def table(index: dict[str, list[str]]) -> str:
    rows = ["| Section | Cases |", "|---|---|"]
    rows += [f"| {section} | {' '.join(ids)} |" for section, ids in index.items()]
    return "\n".join(rows)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_case_ids_are_unique_within_a_ruleset(ruleset):
    counts = Counter(case for case, _ in cases(ruleset))
    assert [case for case, count in counts.items() if count > 1] == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_case_names_the_rule_section_it_tests(ruleset):
    assert [case for case, docstring in cases(ruleset) if section_of(docstring) is None] == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_rules_file_lists_every_section_with_its_cases(ruleset):
    expected = index_of_tests(ruleset)
    assert index_in_rules(ruleset) == expected, (
        f"docs/rules/{ruleset}.md, section Conformance suite, should read:\n{table(expected)}"
    )


if __name__ == "__main__":
    for name in RULESETS:
        print(f"{name}:\n{table(index_of_tests(name))}\n")
