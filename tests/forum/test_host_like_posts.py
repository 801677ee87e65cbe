"""Posts that read like a good host's (docs/design.md: Public posts), read back as the file
publisher wrote them: the opening post; titles with the day, night or turn in words; deaths
with their flips when `reveal_roles` is on (and without them when it is off); the living
with their forum handles; the next deadline in UTC; the end-of-game post with every role,
every secret action and the replacement credits; and the same content in both dialects."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbp.composition import ComposedModerator
from pbp.forum.publishing import drafting
from pbp.forum.publishing import publish
from pbp.forum.config import load_forum_settings
from pbp.forum.publishing.post_renderer import PostRenderer
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.host.substitute import substitute
from pbp.game.record_parts import RosterPlayer
from pbp.settings import load_settings
from tests.fixtures.clocks import Clock

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
ROLES = "werewolf,werewolf,seer,villager,villager,witch,bodyguard,villager"
SEEDS = {"werewolf": "posts-3", "infiltration": "posts-1"}


def play(folder: Path, ruleset: str, dialect: str, **options) -> list[str]:
    """A whole scripted game (with a substitution and a running count on the way), every
    post approved at once; returns the published files' texts, in thread order."""
    folder.mkdir(parents=True, exist_ok=True)
    settings = folder / "pbp.ini"
    settings.write_text(
        f"[pbp]\ndata = {folder / 'data'}\nfrom_address = pbp@games.example\n"
        f"[forum]\npublisher = files\nposts = {folder / 'posts'}\ndialect = {dialect}\n"
        "auto_publish = on\n"
    )
    clock = Clock()
    with ComposedModerator(load_settings(str(settings)), clock=clock) as moderator:
        roster = [
            RosterPlayer(name, f"{name.lower()}@example.org", "", f"u_{name.lower()}")
            for name in NAMES
        ]
        if ruleset == "werewolf":
            options = {"roles": ROLES, **options}
        create_game(
            moderator,
            ruleset,
            roster,
            seed=SEEDS[ruleset],
            options=options,
            game_id="g1",
            schedule_text=None,
        )
        counted = substituted = False
        for _ in range(200):
            game = load(moderator, "g1")
            if game.phase is None:
                break
            with game.file.transaction():
                for player in game.phase.awaited:
                    text = game.rules.scripted_orders(
                        game.state, player, f"{SEEDS[ruleset]}/{game.phase.id}"
                    )
                    if text.strip():
                        game.file.orders.insert(
                            {
                                "phase": game.phase.id,
                                "player": player,
                                "text": text,
                                "received": "2030-01-01T00:00:00+00:00",
                                "message_id": "",
                                "mail_key": "",
                            }
                        )
            game = load(moderator, "g1")
            if not counted and game.phase.kind in ("nominate", "decision"):
                with game.file.transaction():
                    drafting.draft_tally(
                        PostRenderer(describe=moderator.renderer.describe),
                        load_forum_settings(moderator.settings),
                        game,
                        moderator.clock(),
                    )
                counted = True
            if not substituted and game.phase.kind in ("nominate", "decision"):
                living = [p for p in NAMES if game.rules.status(game.state, p).alive]
                substitute(moderator, "g1", living[0], "Zed", "zed@example.org")
                substituted = True
            clock.advance(days=2)
            resolve_phase(moderator, "g1")
        game = load(moderator, "g1")
        publish.publish_game(game, publish.make_publisher(load_forum_settings(moderator.settings)))
        return [path.read_text() for path in sorted((folder / "posts" / "g1").iterdir())]


@pytest.fixture(scope="module")
def werewolf_thread(tmp_path_factory):
    return play(tmp_path_factory.mktemp("ww"), "werewolf", "markdown", reveal_roles="on")


def test_the_thread_opens_with_the_rules_the_setup_the_players_and_how_to_send_orders(
    werewolf_thread,
):
    opening = werewolf_thread[0]
    assert opening.startswith("g1: g1 — a game of Werewolf begins\n")
    assert (
        "**The rules in brief**" in opening
        and "Dead players' roles are shown when they die." in opening
    )
    assert "2 Werewolves, 2 Villagers" not in opening  # counts are listed role by role, sorted
    assert (
        "\n1 Bodyguard, 1 Seer, 3 Villagers, 2 Werewolves, 1 Witch.\n\n**Players (8):**" in opening
    )
    assert "**Players (8):** Alice (u\\_alice), Bruno (u\\_bruno)" in opening
    assert "reply to pbp's mail with the order block filled in" in opening
    assert re.search(
        r"\*\*Night 0:\*\* orders are due by \w{3} \d+ \w{3} \d{4}, \d\d:\d\d UTC\.", opening
    )


def test_titles_say_the_day_or_night_in_words_never_a_phase_id(werewolf_thread):
    titles = [text.splitlines()[0] for text in werewolf_thread]
    assert all(
        re.fullmatch(r"g1: (g1 — a game of Werewolf begins|(Day|Night) \d+ — .+)", t)
        for t in titles
    ), titles
    assert not any(re.search(r"\b[DN]\d+(-\w+)?\b", t) for t in titles)
    assert any(re.fullmatch(r"g1: Day \d+ — \w+ was lynched.*", t) for t in titles)


def test_deaths_carry_their_flip_and_the_living_their_handles_and_the_deadline_is_in_utc(
    werewolf_thread,
):
    lynches = [t for t in werewolf_thread if re.search(r"^\*\*\w+\*\* was lynched", t, re.M)]
    assert lynches and all(
        re.search(r"^\*\*\w+\*\* was lynched\. They were an? [A-Z][a-z ]+\.$", t, re.M)
        for t in lynches
    )
    middle = lynches[0]
    assert re.search(r"^\*\*Living \(\d\):\*\* .*\(u\\_\w+\)", middle, re.M)
    assert re.search(r"^\*\*Dead \(\d\):\*\* \w+ \(Day \d, an? [A-Z][a-z ]+\)", middle, re.M)
    assert re.search(
        r"^\*\*Night \d:\*\* the night ends \w{3} \d+ \w{3} \d{4}, \d\d:\d\d UTC\.", middle, re.M
    )


def test_without_reveal_roles_no_flip_reaches_the_thread(tmp_path):
    thread = play(tmp_path, "werewolf", "markdown")
    game_posts = thread[1:-1]  # the end post shows every role
    assert not any(re.search(r"was lynched\. They were", t) for t in game_posts)
    assert not any(
        re.search(r"^\*\*Dead \(\d\):\*\* .*, an? [A-Z]\w+\)", t, re.M) for t in game_posts
    )


def test_the_end_post_gives_every_role_every_night_action_and_the_replacement(werewolf_thread):
    end = werewolf_thread[-1]
    assert "## The game is over" in end and "**Everyone's role**" in end
    assert "(played by Alice, then Zed)" in end
    assert "**What everyone did**" in end
    assert re.search(r"^\*Night 1\*$", end, re.M)
    assert re.search(r"^\* \*\*\w+\*\*: KILL \w+$", end, re.M)
    assert (
        "NOMINATE" not in end.split("**What everyone did**")[1]
    )  # public orders are in the posts already


def test_the_infiltration_end_post_lists_every_terminal_use(tmp_path):
    thread = play(tmp_path, "infiltration", "markdown")
    assert thread[0].startswith("g1: g1 — a game of Infiltration begins\n")
    assert all(re.match(r"g1: (g1 — a game|Turn \d+ — )", text) for text in thread)
    end = thread[-1]
    assert "**What everyone did**" in end
    log = end.split("**What everyone did**")[1]
    assert re.search(r"^\*Turn \d+ — decision\*$", log, re.M)
    orders = re.findall(r"^\* \*\*\w+\*\*: (\w+)", log, re.M)
    assert orders and set(orders) <= {"USE", "HACK", "DESTROY", "RESTORE", "REPAIR", "ATTACK"}


# --------------------------------------------------------------------------- dialects
def visible_markdown(text: str) -> list[str]:
    lines = []
    for line in text.splitlines():
        line = re.sub(r"^## ", "", line)
        line = re.sub(r"^\* ", "• ", line)
        line = re.sub(r"^> ", "", line)
        line = re.sub(r"\^\((.*)\)$", r"\1", line)
        line = line.replace("**", "")
        line = re.sub(r"(?<!\\)\*", "", line)
        lines.append(re.sub(r"\\(.)", r"\1", line))
    return [line for line in lines if line.strip()]


def visible_bbcode(text: str) -> list[str]:
    lines = []
    for line in text.splitlines():
        line = line.replace("[*]", "• ")
        line = re.sub(r"\[/?(b|i|list|quote|size(=\d+)?)\]", "", line)
        line = line.replace("[hr][/hr]", "---")
        lines.append(line.replace("\uff3b", "[").replace("\uff3d", "]"))
    return [line for line in lines if line.strip()]


@pytest.mark.parametrize("ruleset", ["werewolf", "infiltration"])
def test_every_post_kind_says_the_same_in_markdown_and_bbcode(tmp_path, ruleset):
    """Opening, running count, host announcement, phase posts and the end post: the two
    dialects differ in markup only."""
    markdown = (
        play(tmp_path / "md", ruleset, "markdown", reveal_roles="on")
        if ruleset == "werewolf"
        else play(tmp_path / "md", ruleset, "markdown")
    )
    bbcode = (
        play(tmp_path / "bb", ruleset, "bbcode", reveal_roles="on")
        if ruleset == "werewolf"
        else play(tmp_path / "bb", ruleset, "bbcode")
    )
    assert len(markdown) == len(bbcode) > 4
    kinds = " ".join(text.splitlines()[0] for text in markdown)
    assert "count" in kinds and "announcement from the host" in kinds and "begins" in kinds
    for md, bb in zip(markdown, bbcode):
        # the marker hashes each dialect's own text: only its game and phase must agree
        marker = re.compile(r"^(pbp:g1:[^:]+):[0-9a-f]+$")
        assert [marker.sub(r"\1", line) for line in visible_markdown(md)] == [
            marker.sub(r"\1", line) for line in visible_bbcode(bb)
        ]
