"""`pbp demo` reads as a first look should (docs/design.md: Embedded default): each block
is headed by its phase in words, never its id; the end is said in words ("The Village
wins!"), and the last lines say where to look next."""

from __future__ import annotations

import re

from pbp.demo import play_demo


def test_the_demo_names_phases_in_words_ends_in_words_and_says_where_to_look(tmp_path):
    lines: list[str] = []
    outcome = play_demo("werewolf", 9, seed="1", data=tmp_path / "demo", say=lines.append)
    assert outcome.result
    text = "\n".join(lines)
    headers = re.findall(r"^== (.*) ==$", text, re.M)
    assert headers and not any(re.fullmatch(r"[TDN]\d+(-[a-z]+)?", header) for header in headers), (
        headers
    )
    assert "Winner:" not in text
    assert re.search(r"^The (Village|Wolves|\w+) wins?!", text, re.M), text[-400:]
    assert "--keep" in text and "pbp init" in text
