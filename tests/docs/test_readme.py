"""The README is the front page (docs/design.md: The documentation site): what pbp is, the two
quick-start commands word for word, and links into the documentation that lead somewhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def code_blocks(markdown: str) -> list[str]:
    return [
        block.strip()
        for block in re.findall(r"^```[^\n]*\n(.*?)^```", markdown, flags=re.MULTILINE | re.DOTALL)
    ]


def test_the_readme_gives_the_two_quick_start_commands() -> None:
    blocks = code_blocks(README)
    assert "python3 -m pip install -q -e . && python3 -m pbp demo" in blocks
    assert "scripts/test" in blocks
    assert README.index("pbp demo") < README.index("scripts/test")


def test_the_readme_links_into_the_documentation() -> None:
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    local = [target for target in targets if "://" not in target]
    missing = [target for target in local if not (ROOT / target).exists()]
    assert not missing, f"the README links to files that do not exist: {missing}"
    assert {"docs/host/install.md", "docs/player.md", "docs/index.md"} <= set(local)


def test_the_readme_stays_a_front_page() -> None:
    assert len(README.splitlines()) <= 80, "the README is a front page; the manual belongs in docs/"
