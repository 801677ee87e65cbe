"""What a draw hashes (engine/core.py, `json_strings`, behind `phase_rng` and the
simulation's coins) is byte for byte what `json.dumps` of the same strings gives, for any
text: the seeds of every saved game and replay depend on it."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from engine.core import json_strings


@given(st.lists(st.text(), min_size=1, max_size=4))
def test_the_material_of_a_draw_is_the_json_of_its_strings(texts):
    assert json_strings(*texts) == json.dumps(texts).encode()
