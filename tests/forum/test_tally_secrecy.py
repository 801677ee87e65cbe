"""A running count tells nothing hidden (docs/design.md: Public posts: "tallies are built
from public facts only"): twin Werewolf games that differ only in who holds which role,
with the same accepted nominations, give byte-identical counts, in the `STATUS` reply's
form and in the drafted post (which also passes the leak check)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbp.composition import ComposedModerator
from pbp.forum.publishing import drafting
from pbp.forum.config import load_forum_settings
from pbp.forum.publishing.post_renderer import PostRenderer
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.game.tally import running_tally
from pbp.game.record_parts import RosterPlayer
from pbp.settings import load_settings
from tests.fixtures.clocks import Clock

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
ROLES = ("werewolf", "werewolf", "seer", "villager", "villager", "witch", "bodyguard", "villager")


def count_in_game(folder: Path, roles: tuple[str, ...], nominations: dict[str, str], reveal: bool):
    settings = folder / "pbp.ini"
    settings.write_text(
        f"[pbp]\ndata = {folder / 'data'}\nfrom_address = pbp@games.example\n"
        f"[forum]\npublisher = files\nposts = {folder / 'posts'}\n"
    )
    with ComposedModerator(load_settings(str(settings)), clock=Clock()) as moderator:
        roster = [RosterPlayer(name, f"{name.lower()}@example.org") for name in NAMES]
        create_game(
            moderator,
            "werewolf",
            roster,
            seed="twin",
            options={"roles": ",".join(roles), "reveal_roles": "on" if reveal else "off"},
            game_id="ww1",
        )
        resolve_phase(moderator, "ww1")  # N0: nobody acts that can kill; D1-nominate opens
        game = load(moderator, "ww1")
        with game.file.transaction():
            for player, target in nominations.items():
                game.file.orders.insert(
                    {
                        "phase": game.phase.id,
                        "player": player,
                        "text": f"NOMINATE {target}",
                        "received": "2030-01-01T00:00:00+00:00",
                        "message_id": "",
                        "mail_key": "",
                    }
                )
        game = load(moderator, "ww1")
        with game.file.transaction():
            row = drafting.draft_tally(
                PostRenderer(describe=moderator.renderer.describe),
                load_forum_settings(moderator.settings),
                game,
                moderator.clock(),
            )
        return running_tally(load(moderator, "ww1")), row.title, row.text, row.leaks


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    roles=st.permutations(ROLES),
    other=st.permutations(ROLES),
    reveal=st.booleans(),
    nominations=st.dictionaries(
        st.sampled_from(NAMES), st.sampled_from(NAMES), max_size=len(NAMES)
    ),
)
def test_twin_games_differing_in_who_holds_each_role_give_the_same_count(
    roles, other, reveal, nominations
):
    with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second:
        one = count_in_game(Path(first), tuple(roles), nominations, reveal)
        two = count_in_game(Path(second), tuple(other), nominations, reveal)
    assert one == two
    assert one[3] == ()  # the leak check finds nothing in the drafted count
