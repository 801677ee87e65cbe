"""The host's guide shows real excerpts of a report and of posts: each excerpt that names a
golden transcript must be found in it word for word, so the guide never drifts from what
pbp writes (regenerate the transcripts with `scripts/golden`, then fix the guide); and the
replies the player's guide shows are accepted as meant."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# "(`tests/golden/<ruleset>/<file>`):" followed by a fenced block
EXCERPT = re.compile(r"\(`(tests/golden/[^`]+)`\):\n\n```\n(.*?)```", re.S)


HOST_GUIDE = ROOT / "docs" / "host"
PLAYER_GUIDE = ROOT / "docs" / "player.md"


def test_every_guide_excerpt_of_a_transcript_is_in_that_transcript():
    excerpts = [
        excerpt
        for page in sorted(HOST_GUIDE.glob("*.md"))
        for excerpt in EXCERPT.findall(page.read_text(encoding="utf-8"))
    ]
    assert len(excerpts) >= 2, "the host's guide shows a report and a post from the demo games"
    for path, excerpt in excerpts:
        assert excerpt.strip() in (ROOT / path).read_text(encoding="utf-8"), (
            f"the guide's excerpt of {path} drifted"
        )


FENCED = re.compile(r"```\n(.*?)```", re.S)


def test_the_replies_the_players_guide_shows_are_accepted_as_meant(tmp_path):
    """The player's guide, filling in the form: a reply from a phone (typed inside the quoted
    form) and a reply inside the quote, each sent by Bruno's voter in a Werewolf game at D1-nominate, record
    exactly `NOMINATE Bruno`."""
    from pbp.composition import ComposedModerator
    from pbp.desk import Desk
    from pbp.game.create import create_game
    from pbp.game.stored import load
    from pbp.game.resolution import resolve_phase
    from pbp.game.record_parts import RosterPlayer
    from pbp.settings import Settings
    from tests.fixtures.clocks import Clock
    from tests.desk.test_desk import mail
    from pbp.mail.ingest.inbound import parse_inbound

    replies = [
        block
        for block in FENCED.findall(PLAYER_GUIDE.read_text(encoding="utf-8"))
        if "NOMINATE Bruno" in block
    ]
    assert len(replies) == 2
    names = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ingrid")
    for number, reply in enumerate(replies):
        settings = Settings(data=tmp_path / str(number), from_address="pbp@example.org")
        with ComposedModerator(settings, clock=Clock()) as moderator:
            roster = [RosterPlayer(name, f"{name.lower()}@example.org") for name in names]
            create_game(moderator, "werewolf", roster, seed="readme", game_id="ww1")
            resolve_phase(moderator, "ww1")
            game = load(moderator, "ww1")
            assert game.phase.id == "D1-nominate"
            body = reply.replace("k7p2x9q4mz", game.token("Alice"))
            raw = mail(body, sender="Alice <alice@example.org>")
            assert (
                Desk(moderator).receive(parse_inbound(raw, ("pbp@example.org",), 10**6))
                == "processed"
            )
            assert (
                load(moderator, "ww1").latest_order("D1-nominate", "Alice").text == "NOMINATE Bruno"
            )
