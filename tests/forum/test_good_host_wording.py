"""Posts and mails worded as a good host writes them (docs/design.md: Public posts, "as a
forum host writes them"): phases in words, never their ids; roles capitalised, with their
articles and plurals, from one set of filters (pbp/render/words.py); the winning side in
words; a full stop after the host's reason; an Infiltration end log with every attack and
how everyone died; a role list with forum accounts and NPCs marked; a thank-you line; NPCs
apart from the players in the opening; one Alert rule in posts and reports; running counts
stamped with their time. Each test reads the text as it is rendered."""

from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest

from pbp.cli import main
from pbp.composition import ComposedModerator
from pbp.forum.publishing import drafting
from pbp.forum.config import load_forum_settings
from pbp.forum.publishing.dialects import dialect
from pbp.forum.publishing.post_renderer import PostFacts, PostRenderer
from pbp.game.create import create_game
from pbp.game.record_parts import Npc, RosterPlayer
from pbp.game.stored import load
from pbp.render.renderer import Renderer
from pbp.settings import load_settings
from pbp.storage.drafts import DraftBook

from tests.fixtures.clocks import Clock
from tests.forum.conftest import stored
from tests.forum.test_host_like_posts import play

PHASE_ID = re.compile(r"\b[TDN]\d+(-[a-z]+)?\b")
RENDERER = Renderer()


def post(
    ruleset: str,
    events: list[dict],
    *,
    phase: str = "D1-vote",
    kind: str = "post",
    view: dict | None = None,
    extra: dict | None = None,
) -> str:
    """A post as the forum drafts it, in Markdown, its escapes taken out."""
    import engine

    facts = PostFacts(
        game="g1",
        ruleset=ruleset,
        phase=phase,
        public_view=view or {"players": []},
        events=events,
        extra=extra or {},
        phase_words=engine.ruleset(ruleset).card.phase_words,
    )
    draft = PostRenderer(describe=RENDERER.describe).render(facts, dialect("markdown"), kind=kind)
    return (draft.title + "\n" + draft.text).replace("\\", "")


@pytest.fixture(scope="module")
def werewolf_thread(tmp_path_factory):
    return [
        text.replace("\\", "")
        for text in play(tmp_path_factory.mktemp("ww"), "werewolf", "markdown", reveal_roles="on")
    ]


@pytest.fixture(scope="module")
def infiltration_thread(tmp_path_factory):
    return [
        text.replace("\\", "")
        for text in play(tmp_path_factory.mktemp("inf"), "infiltration", "markdown")
    ]


def test_clock_notices_and_their_posts_name_the_phase_in_words_never_its_id(host_game, capsys):
    assert (
        main(
            [
                "extend",
                "inf1",
                "2099-12-01 18:00 UTC",
                "--reason",
                "Bruno asked for more time",
                "--no-send",
            ]
        )
        == 0
    )
    assert main(["pause", "inf1", "--no-send"]) == 0
    assert main(["resume", "inf1", "--no-send"]) == 0
    moderator, game = stored(host_game)
    with moderator:
        posts = [row for row in DraftBook(game.file).all() if "/host-" in row.phase]
        notices = [
            row
            for row in game.file.outbox.all()
            if row["kind"] == "notice" and row["recipient"] == "Alice"
        ]
    assert [row.title for row in posts] == [
        "Turn 1 — movement: the deadline moves",
        "Turn 1 — movement: the game is paused",
        "Turn 1 — movement: the game resumes",
    ]
    assert notices[0]["subject"] == "[inf1] Turn 1, movement: the deadline has moved."
    assert "The deadline of Turn 1 — movement is stopped with " in notices[1]["body"]
    texts = [draft.title + draft.text for draft in posts]
    for text in texts + [notice["subject"] + notice["body"] for notice in notices]:
        assert not PHASE_ID.search(text.split("pbp-token")[0].split("BEGIN ORDERS")[0]), text


def test_the_setup_counts_roles_capitalised_with_their_plurals():
    opening = post(
        "werewolf",
        [],
        phase="N0",
        kind="opening",
        view={
            "players": [],
            "options": {},
            "setup": {"mason": 2, "villager": 3, "werewolf": 2, "witch": 1},
        },
        extra={"living": [], "npcs": []},
    )
    assert "\n2 Masons, 3 Villagers, 2 Werewolves, 1 Witch.\n" in opening
    status = RENDERER.env.from_string(
        '{% import "werewolf/status.j2" as st %}{{ st.status(view) }}'
    ).render(
        view={
            "over": True,
            "living": ["Ana"],
            "players": [{"name": "Ana", "alive": True}],
            "setup": {"apothecary": 1, "rabble_rouser": 2},
            "defendants": [],
            "runoff": None,
            "result": {"winners": ["village"], "path": "no-wolves-left", "players": []},
        }
    )
    assert "Setup: 1 Apothecary, 2 Rabble rousers." in status


def test_a_flip_reads_they_were_a_villager_in_posts_and_mails():
    lynch = {"kind": "lynch", "data": {"player": "Chen", "role": "villager", "day": 1}}
    assert "**Chen** was lynched. They were a Villager." in post("werewolf", [lynch])
    assert RENDERER.describe("werewolf", lynch) == "Chen is lynched. They were a Villager."
    dead = post(
        "werewolf",
        [],
        extra={"living": [], "dead": [{"name": "Ivo", "when": "Day 2", "flip": "Apothecary"}]},
    )
    assert "**Dead (1):** Ivo (Day 2, an Apothecary)" in dead
    trial = RENDERER.describe(
        "werewolf", {"kind": "trial", "data": {"day": 1, "defendants": ["Ana"]}}
    )
    assert trial == "On trial on Day 1: Ana. Mail VOTE Ana to lynch them, or VOTE NO LYNCH."


def test_the_end_post_says_which_side_wins_in_words():
    over = {
        "kind": "game_over",
        "data": {
            "winners": ["village"],
            "path": "no-wolves-left",
            "players": ["Ana"],
            "roles": {"Ana": "seer"},
        },
    }
    assert "**The Village wins!** No wolf is left alive." in post("werewolf", [over])
    greens = {
        "kind": "result",
        "data": {"winners": ["green"], "path": "no-reds-left", "players": ["Ana"]},
    }
    assert "**The Greens win!** Every living player agreed" in post(
        "infiltration", [greens], phase="T3-decision"
    )
    draw = {"kind": "result", "data": {"winners": [], "path": "draw-too-few", "players": []}}
    assert "**No side wins.** No Red is left, but too few Greens remain" in post(
        "infiltration", [draw], phase="T3-decision"
    )
    assert "The game is over: no wolf is left alive. The Village wins!" in RENDERER.describe(
        "werewolf", over
    )


def test_the_hosts_reason_ends_with_a_full_stop():
    kill = {
        "kind": "host_kill",
        "data": {"player": "Fay", "reason": "inactive for two days", "role": "villager"},
    }
    assert RENDERER.describe("werewolf", kill) == (
        "The host has removed Fay from the game: inactive for two days. They were a Villager."
    )
    assert (
        "**Fay** was removed from the game by the host: inactive for two days. They were a Villager."
        in post("werewolf", [kill])
    )
    asked = {"kind": "host_kill", "data": {"name": "Fay", "reason": "asked to leave!"}}
    assert "Reason: asked to leave!\n" in post(
        "infiltration", [asked], phase="T1-decision", kind="host"
    )


def test_the_infiltration_end_log_lists_every_attack_and_how_everyone_died(infiltration_thread):
    end = infiltration_thread[-1]
    log = end.split("**What everyone did**")[1]
    assert re.search(r"^\* \*\*\w+\*\*: ATTACK ", log, re.M)
    dead = re.findall(
        r"^\* Turn \d+: \*\*(\w+)\*\*, (.+)$", end.split("**How everyone died**")[1], re.M
    )
    assert dead and all(how for _, how in dead)
    guard = post(
        "infiltration",
        [],
        phase="T2-decision",
        view={
            "players": [],
            "dead": [{"name": "Chen", "turn": 2, "cause": "guard", "room": "B-3"}],
        },
        extra={"roles": [{"name": "Chen", "role_text": "Green Hacker"}]},
    )
    assert "* Turn 2: **Chen**, killed by a guard in B-3" in guard


def test_the_role_list_shows_forum_accounts_and_marks_npcs(werewolf_thread):
    end = werewolf_thread[-1]
    assert re.search(r"^\* \*\*Bruno\*\* \(u_bruno\): [A-Z]", end, re.M)
    listed = post(
        "infiltration",
        [],
        phase="T2-decision",
        extra={
            "roles": [
                {"name": "Anna", "role_text": "Green Hacker", "handle": "anna_k", "npc": False},
                {"name": "Raiden", "role_text": "Neutral Renegade", "handle": "", "npc": True},
            ]
        },
    )
    assert (
        "* **Anna** (anna_k): Green Hacker\n* **Raiden** (NPC, played by the host): Neutral Renegade"
        in listed
    )


def test_the_last_post_thanks_the_players(werewolf_thread, infiltration_thread):
    for thread in (werewolf_thread, infiltration_thread):
        assert (
            thread[-1]
            .split("\n^(pbp:")[0]
            .rstrip()
            .endswith("*Thank you all for playing, and well played!*")
        )
        assert not any("Thank you all" in text for text in thread[:-1])


def test_the_opening_lists_the_npcs_apart_and_counts_the_reds(tmp_path):
    settings = tmp_path / "pbp.ini"
    settings.write_text(
        f"[pbp]\ndata = {tmp_path / 'data'}\nfrom_address = pbp@games.example\n"
        f"[forum]\npublisher = files\nposts = {tmp_path / 'posts'}\n"
    )
    with ComposedModerator(load_settings(str(settings)), clock=Clock()) as moderator:
        roster = [
            RosterPlayer(name, f"{name.lower()}@example.org", "", "")
            for name in ("Anna", "Ben", "Chen", "Dora", "Emil", "Fay")
        ]
        create_game(
            moderator,
            "infiltration",
            roster,
            [Npc("Raiden", "renegade", "neutral")],
            seed="npc",
            game_id="inf1",
        )
        opening = DraftBook(load(moderator, "inf1").file).get("opening").text.replace("\\", "")
    assert "**Players (6):** Anna, Ben, Chen, Dora, Emil, Fay\n" in opening
    assert "**NPCs, played by the host (1):** Raiden\n" in opening
    assert "\n1 Red among the players; " in opening


def test_the_alert_rule_reads_the_same_in_the_post_and_the_reports():
    for floors in ([], ["B"]):
        alert = {
            "kind": "alert",
            "data": {"turn": 1, "holds": True, "floors": floors, "scope": "floor"},
        }
        rule = RENDERER.describe("infiltration", alert).split(". ", 1)[1]
        assert rule.startswith("Only Sneakers and Renegades can use terminals")
        assert rule in post("infiltration", [alert], phase="T1-movement")


def test_a_running_count_says_as_of_when(tmp_path):
    settings = tmp_path / "pbp.ini"
    settings.write_text(
        f"[pbp]\ndata = {tmp_path / 'data'}\nfrom_address = pbp@games.example\n"
        f"[forum]\npublisher = files\nposts = {tmp_path / 'posts'}\n"
    )
    with ComposedModerator(load_settings(str(settings)), clock=Clock()) as moderator:
        roster = [
            RosterPlayer(name, f"{name.lower()}@example.org", "", "")
            for name in ("Ana", "Ben", "Cy", "Di", "Ed")
        ]
        create_game(moderator, "infiltration", roster, seed="count", game_id="inf1")
        game = load(moderator, "inf1")
        with game.file.transaction():
            row = drafting.draft_tally(
                PostRenderer(describe=moderator.renderer.describe),
                load_forum_settings(moderator.settings),
                game,
                datetime(2030, 1, 7, 9, 30, tzinfo=timezone.utc),
            )
    assert "*As of Mon 7 Jan 2030, 09:30 UTC.*\n" in row.text


def test_the_signup_announcement_names_one_number_when_min_and_max_agree():
    text = RENDERER.env.get_template("signups/announcement.j2").render(
        game={"id": "ww1", "ruleset": "werewolf", "players_min": 11, "players_max": 11},
        closes="soon",
        phases="",
        address="pbp@example.org",
        spectators="none",
        votes="mail",
    )
    assert "is looking for 11 players." in text
