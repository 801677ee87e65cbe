"""The project's account of itself stays true to the tree (docs/design.md: Testing): every
heading a comment cites in docs/design.md exists, every path the documents name exists,
and every dotted name they give (`pbp.storage.upgrading.upgrades`, `engine.core.Ruleset`) can be
imported or looked up. A document that drifts from the code fails here, not in a reader's
hands."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "design.md"
# Where comments cite the design document: the code, its templates, scripts and tests.
CITING = [
    *ROOT.glob("pbp/**/*.py"),
    *ROOT.glob("engine/**/*.py"),
    *ROOT.glob("tests/**/*.py"),
    *ROOT.glob("templates/**/*.j2"),
    *ROOT.glob("scripts/*"),
    *ROOT.glob("benchmarks/*.py"),
]
DOCUMENTS = [*ROOT.glob("docs/**/*.md"), ROOT / "README.md"]
# A citation: the design document's name, a colon and a heading (then more headings after
# commas, a subtopic after a semicolon, or detail after a dash), possibly
# running on over a comment's next lines, up to the closing parenthesis or quotation mark.
CITATION = re.compile(r"docs/design\.md: ((?:[^)\"\n]|\n\s*#?\s*)+)")
# Backticked names in the documents that look like a path in the tree or a dotted name.
PATH = re.compile(r"^(pbp|engine|templates|tests|scripts|benchmarks|docs|examples)/")
DOTTED = re.compile(r"^(pbp|engine)\.[a-z_][\w.]*$")
FILE_NAMES = (".lock", ".json", ".ini", ".journal", ".texts", ".service", ".log")


def headings() -> list[str]:
    """The design document's headings, longest first, and each one's part before a colon
    (`The host's view` stands for `The host's view: the facility map` and its sibling)."""
    found = {
        line.lstrip("#").strip()
        for line in DESIGN.read_text(encoding="utf-8").splitlines()
        if re.match(r"#{1,6} ", line)
    }
    return sorted(found | {heading.split(": ")[0] for heading in found}, key=len, reverse=True)


def cites_headings(cited: str, known: list[str]) -> bool:
    """Whether a citation opens with a heading, and each further capitalised item after a
    comma or semicolon is a heading too (lower-case items are subtopics, quotations or
    another document)."""
    text = cited.strip()
    while True:
        heading = next(
            (
                h
                for h in known
                if text.lower().startswith(h.lower())
                and (len(text) == len(h) or not text[len(h)].isalnum())
            ),
            None,
        )
        if heading is None:
            return False
        text = text[len(heading) :]
        separator = re.match(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+", text)
        if separator is None:
            return True
        text = text[separator.end() :]
        if not text[:1].isupper() or text.startswith(("docs/", "rules/")):
            return True


def citations() -> list[tuple[str, str]]:
    found = []
    for path in sorted(CITING):
        if path.is_file():
            for match in CITATION.finditer(path.read_text(encoding="utf-8", errors="replace")):
                cited = re.sub(r"\s+", " ", re.sub(r"\n\s*#?\s*", " ", match.group(1))).strip()
                found.append((str(path.relative_to(ROOT)), cited))
    return found


def backticked(pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    found = []
    for document in sorted(DOCUMENTS):
        for match in re.finditer(r"`([^`\s]+)`", document.read_text(encoding="utf-8")):
            token = match.group(1).rstrip(".,:;")
            if pattern.match(token) and not token.endswith(FILE_NAMES):
                found.append((str(document.relative_to(ROOT)), token))
    return found


def resolves(dotted: str) -> bool:
    """Whether the longest importable prefix of `dotted` holds the rest as attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def test_every_heading_a_comment_cites_exists():
    known = headings()
    stale = [
        f"{where}: {cited[:80]}" for where, cited in citations() if not cites_headings(cited, known)
    ]
    assert not stale, "citations of docs/design.md that name no heading:\n" + "\n".join(stale)


def test_every_path_the_documents_name_exists():
    missing = []
    for document, token in backticked(PATH):
        path = token.split("::")[0].split(":")[0]
        if any(mark in path for mark in "<>{}"):
            continue  # a pattern such as games/<id>.json
        if not (list(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()):
            missing.append(f"{document}: {token}")
    assert not missing, "paths the documents name that do not exist:\n" + "\n".join(missing)


def test_every_dotted_name_the_documents_give_resolves():
    missing = [
        f"{document}: {token}" for document, token in backticked(DOTTED) if not resolves(token)
    ]
    assert not missing, "dotted names the documents give that do not resolve:\n" + "\n".join(
        missing
    )


@pytest.mark.parametrize(
    "cited, ok",
    [
        ("Storage", True),
        ("Reliability rules, Storage", True),
        ("Public posts; host review", True),
        ("The host's view", True),
        ("Hostile input — header values", True),
        ("Sign-ups; The dead and spectators", False),
        ("The engine", False),
    ],
)
def test_a_citation_is_read_as_a_reader_would(cited, ok):
    assert cites_headings(cited, headings()) is ok


def architecture_script():
    from importlib.machinery import SourceFileLoader
    from importlib.util import module_from_spec, spec_from_loader

    loader = SourceFileLoader("check_architecture", str(ROOT / "scripts" / "check-architecture"))
    script = module_from_spec(spec_from_loader(loader.name, loader))
    loader.exec_module(script)
    return script


def test_the_architecture_page_is_checked_and_lists_the_declared_layers():
    """docs/architecture.md is one of the documents checked above, and its table of layers
    is `LAYERS` itself: bottom up, each row the same packages (`pbp.` left out)."""
    page = ROOT / "docs" / "architecture.md"
    assert page in DOCUMENTS
    rows = [
        line.split("|")[2]
        for line in page.read_text(encoding="utf-8").splitlines()
        if re.match(r"\| \d+ \|", line)
    ]
    listed = [sorted(re.findall(r"`([\w.]+)`", row)) for row in rows]
    declared = [
        sorted(name.removeprefix("pbp.") for name in architecture_script().layer_members(layer))
        for layer in architecture_script().LAYERS
    ]
    assert listed == declared


def test_the_declared_layers_name_only_real_modules():
    """A layer that names a module that does not exist (one removed or never written)
    says something false about the tree and checks nothing."""
    import grimp

    script = architecture_script()
    modules = grimp.build_graph("pbp", "engine", cache_dir=None).modules
    declared = [name for layer in script.LAYERS for name in script.layer_members(layer)]
    assert [name for name in declared if name not in modules] == []
