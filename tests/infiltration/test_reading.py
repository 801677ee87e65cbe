"""The thread's reading (engine/infiltration/players/reading.py): what every scripted
player makes of the thread alike is made once per thread and living players, and shared by
the players of a phase; a reading equals one made afresh from the same posts."""

from __future__ import annotations

from engine.infiltration.players.reading import Reading, reading_of
from engine.players import Post

THREAD = (
    Post(
        "Alice",
        "T1-decision",
        "report",
        {"teams": {"Bruno": "red"}, "features": {"A-1": "HANGAR"}, "code": "1234"},
    ),
    Post("Chloe", "T1-decision", "report", {"teams": {"Bruno": "green"}, "stinger": True}),
    Post(
        "Bruno",
        "T1-decision",
        "report",
        {"teams": {"Alice": "red"}, "features": {"A-1": "SEER", "B-2": "GENERATOR"}},
    ),
)
LIVING = ("Alice", "Bruno", "Chloe", "Dmitri")


def test_the_players_of_a_phase_share_one_reading_of_its_thread():
    first = reading_of(THREAD, LIVING)
    assert reading_of(THREAD, LIVING) is first
    assert reading_of(THREAD, LIVING[:3]) is not first  # someone died: another reading
    assert reading_of(tuple(THREAD), LIVING) is not reading_of(THREAD[:2], LIVING)


def test_a_shared_reading_says_what_a_fresh_one_says():
    shared, fresh = reading_of(THREAD, LIVING), Reading(THREAD, LIVING)
    for fact in ("reports", "scores", "features", "code", "least_suspected", "carriers"):
        assert getattr(shared, fact) == getattr(fresh, fact), fact
    # Alice and Chloe disagree about Bruno, so both are doubted; Bruno names Alice Red, so
    # she is not believed: the room and the code she reported are not taken.
    assert fresh.scores == {"Alice": 2.5, "Bruno": 0.5, "Chloe": 0.5, "Dmitri": 0.0}
    assert fresh.features == {"A-1": "SEER", "B-2": "GENERATOR"} and fresh.code is None
    assert fresh.carriers == ("Chloe",) and fresh.least_suspected == (
        "Dmitri",
        "Bruno",
        "Chloe",
        "Alice",
    )
