"""The facility map attached to a report speaks its reader's language as the report's text
map does (docs/design.md: Languages — no English left): its title, legend and details
come from the catalog domain `cards` through the same `word`, so a German reader's
map.svg says what their mail's map says."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

from engine.infiltration.drawing import text_map
from engine.infiltration.map_svg import svg_map
from pbp.render.renderer import Renderer, map_attachments
from tests.infiltration.test_c4_facility_map import SVG, walked_state
from tests.infiltration.scenario import RULES
from tests.render.test_no_english_left import english_left

TITLES = {"de": "Karte der Anlage, Runde 2", "es": "Mapa de la instalación, turno 2"}


def svg_texts(svg: str) -> list[str]:
    return ["".join(text.itertext()) for text in ElementTree.fromstring(svg).iter(f"{SVG}text")]


@pytest.mark.parametrize("language", sorted(TITLES))
def test_the_attached_map_is_worded_as_the_mail_s_text_map(language):
    view = RULES.view(walked_state(), "Ann")
    word = Renderer(language=language).board_word
    (attachment,) = map_attachments(
        "report", {"view": view, "game": {"ruleset": "infiltration"}}, word
    )
    texts = svg_texts(attachment.text)
    assert texts[0] == text_map(view, word).splitlines()[0]
    assert texts[0].startswith(TITLES[language])
    assert not english_left(" ".join(texts))
    assert english_left(" ".join(svg_texts(svg_map(view))))  # English is what it was


def test_an_english_reader_s_map_is_as_before():
    view = RULES.view(walked_state(), "Ann")
    (attachment,) = map_attachments("report", {"view": view, "game": {"ruleset": "infiltration"}})
    assert attachment.text == svg_map(view)
