"""The files pbp reads at run time besides its code are found one way (docs/design.md:
Packaging): through the data package `pbp.templates`, never from a module's own place."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pbp.release
from pbp.errors import UserError
from pbp.release import settings_example, templates_folder

REPO = Path(__file__).resolve().parents[2]


def test_the_templates_folder_holds_the_templates_and_the_settings_example():
    assert (templates_folder() / "mail" / "welcome.j2").is_file()
    assert settings_example().parent == templates_folder()
    assert settings_example().read_text(encoding="utf-8").startswith("# pbp settings.")


def test_no_module_finds_a_file_from_its_own_place():
    found = [
        f"{path.relative_to(REPO)}:{number}"
        for package in ("pbp", "engine")
        for path in sorted((REPO / package).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\b__file__\b", line)
    ]
    assert found == []


def test_an_install_without_the_templates_is_told_to_install_again(monkeypatch):
    monkeypatch.setattr(pbp.release, "TEMPLATES_PACKAGE", "pbp.no_such_templates")
    with pytest.raises(
        UserError,
        match=r"^pbp was installed without its templates: install it again "
        r"\(in a clone: `python3 -m pip install -e \.`\)\.$",
    ):
        templates_folder()
