"""The host actions page (docs/design.md: The host's desk in the browser — actions): each
action runs its command's operation as the one writer, flashes the command's answer and
the notices queued, and redirects back; a refusal is one sentence and changes nothing."""

from __future__ import annotations

import html
import re
from pathlib import Path

from engine.seat_names import player_names
from pbp.composition import ComposedModerator
from pbp.game.stored import load
from pbp.storage.open_games import open_game

from tests.web.conftest import csrf_of

INFILTRATION = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def text_of(page: bytes) -> str:
    """A page's words, without its markup."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.decode())))


def notes_of(page: bytes) -> str:
    """The notes a page flashes (the action's answer), one per line."""
    return "\n".join(
        text_of(note).strip() for note in re.findall(rb'<p class="note [^"]*"[^>]*>(.*?)</p>', page)
    )


def act(desk, page: str, action: str, **fields: str) -> str:
    """Post a form of `page` to `action` as the browser does; the notes of the page the
    redirect leads to (which the test client keeps as `desk.shown`)."""
    token = csrf_of(desk.get(page).data)
    answer = desk.post(action, data={"csrf_token": token, **fields})
    assert answer.status_code == 302, answer.data
    shown = desk.get(answer.headers["Location"]).data
    desk.shown = text_of(shown)
    return notes_of(shown)


def game_bytes(site) -> bytes:
    games = site.data / "games"
    return b"".join(path.read_bytes() for path in sorted(games.glob("w1.*")))


def record(site, game_id: str = "w1"):
    with ComposedModerator(site.settings()) as moderator:
        return load(moderator, game_id).record


def test_extend_says_what_pbp_extend_says_and_queues_the_notices(desk, site):
    before = record(site).deadline
    page = act(desk, "/games/w1/actions", "/games/w1/actions/extend", when="1d", reason="a holiday")
    assert "Game w1: the deadline is now" in page and "a post for the thread is drafted." in page
    assert re.search(r"Notices queued: [1-9]\d*; pbp run sends them", page)
    assert record(site).deadline > before


def test_a_refused_extension_shows_the_sentence_and_changes_nothing(desk, site):
    before = game_bytes(site)
    page = act(desk, "/games/w1/actions", "/games/w1/actions/extend", when="soonish")
    assert "soonish" in page and "Notices queued" not in page
    assert game_bytes(site) == before


def test_pause_and_resume_with_a_reason(desk, site):
    page = act(desk, "/games/w1/actions", "/games/w1/actions/pause", reason="the host is away")
    assert "Game w1 is paused with" in page and "Resume the game" in desk.shown
    assert record(site).paused is not None
    page = act(desk, "/games/w1/actions", "/games/w1/actions/resume", reason="back")
    assert "Game w1 resumed; the deadline is" in page and record(site).paused is None


def test_modkill_needs_a_public_reason(desk, site):
    page = act(desk, "/games/w1/actions", "/games/w1/actions/modkill", player="Bruno", reason="")
    assert "Give the reason for the modkill" in page
    page = act(
        desk,
        "/games/w1/actions",
        "/games/w1/actions/modkill",
        player="Bruno",
        reason="left the game",
    )
    assert "Bruno is removed from game w1." in page


def test_a_new_player_substitutes(desk, site):
    page = act(
        desk,
        "/games/w1/actions",
        "/games/w1/actions/substitute",
        source="new",
        old="Chloe",
        name="Carol",
        email="carol@example.org",
        timezone="Europe/Paris",
        forum_name="",
    )
    assert "Game w1: Carol now plays Chloe; the old token no longer works" in page
    assert record(site).roster.of("Chloe").email == "carol@example.org"
    page = act(
        desk, "/games/w1/actions", "/games/w1/actions/substitute", source="list", old="Dmitri"
    )
    assert "Game w1 was not opened for sign-ups, so it has no substitutes' list" in page


def test_options_change_only_what_the_host_changed(desk, site):
    page = act(desk, "/games/w1/actions", "/games/w1/actions/options", reminders="off")
    assert "Game w1 now has:" in page and "reminders=off" in page
    assert [
        dict(action.options) for action in record(site).host_actions if action.kind == "options"
    ] == [{"reminders": "off"}]
    page = act(desk, "/games/w1/actions", "/games/w1/actions/options", reminders="sometimes")
    assert "reminders" in page and "Notices queued" not in page


def test_an_action_without_its_csrf_token_is_refused(desk, site):
    before = game_bytes(site)
    assert desk.post("/games/w1/actions/pause", data={"reason": "x"}).status_code == 400
    assert game_bytes(site) == before


def test_an_unknown_game_is_one_sentence(desk):
    answer = desk.get("/games/nope/actions")
    assert answer.status_code == 404 and "nope" in text_of(answer.data)


def infiltration_with_an_npc(site, root: Path) -> None:
    roster = root / "infiltration.csv"
    roster.write_text(
        "name,email\n" + "".join(f"{n},{n.lower()}@example.org\n" for n in INFILTRATION)
    )
    assert (
        site.pbp(
            "new-game",
            "--ruleset",
            "infiltration",
            "--roster",
            str(roster),
            "--seed",
            "7",
            "--id",
            "inf1",
            "--npc",
            "Raiden:renegade:neutral",
            "--no-send",
        )
        == 0
    )
    assert site.pbp("advance", "inf1") == 0  # T1-movement: the NPC has orders to give


def test_the_host_enters_an_npcs_orders_through_the_mail_form(desk, site, tmp_path):
    infiltration_with_an_npc(site, tmp_path)
    form = desk.get("/games/inf1/orders/Raiden")
    words = text_of(form.data)
    assert (
        "BEGIN ORDERS inf1 T1-movement" in words
        and "# MOVE <room>" in words
        and "TOKEN" not in words
    )
    refused = desk.post(
        "/games/inf1/orders/Raiden",
        data={"csrf_token": csrf_of(form.data), "orders": "MOVE Z-9\nFOO"},
    )
    assert refused.status_code == 422
    words = text_of(refused.data)
    assert "The orders for Raiden were not accepted" in words and "unknown order" in words
    problems = re.findall(r"<li>(.*?)</li>", html.unescape(refused.data.decode()), re.S)
    assert [problem[:7] for problem in problems] == [
        "Line 1:",
        "Line 2:",
    ]  # one item per line refused
    assert "MOVE Z-9 FOO" in words  # the text is kept for fixing
    assert "Raiden (NPC) : no orders yet" in text_of(desk.get("/games/inf1/actions").data)
    page = act(desk, "/games/inf1/orders/Raiden", "/games/inf1/orders/Raiden", orders="MOVE A-1")
    assert "Accepted for Raiden:\nMOVE A-1" in page
    assert "Raiden (NPC) : orders in" in text_of(desk.get("/games/inf1/actions").data)
    with ComposedModerator(site.settings()) as moderator:
        assert load(moderator, "inf1").latest_order("T1-movement", "Raiden").text == "MOVE A-1"


def open_with_signups(site, game_id: str, count: int) -> list[str]:
    assert (
        site.pbp(
            "open-game", game_id, "--ruleset", "werewolf", "--players", "8..8", "--closes", "3d"
        )
        == 0
    )
    names = player_names(count)
    with ComposedModerator(site.settings()) as moderator:
        signups = open_game(moderator.folder, game_id)
        with signups.file.transaction():
            signups.file.update_record(
                {
                    "entries": [
                        {
                            "name": n,
                            "email": f"{n.lower()}@x.example",
                            "joined": "2030-01-01T00:00:00Z",
                        }
                        for n in names
                    ]
                }
            )
    return names


def test_an_open_game_starts_and_a_substitute_comes_from_its_list(desk, site):
    names = open_with_signups(site, "ww3", 10)
    assert 'href="/open/ww3/start"' in desk.get("/").data.decode()  # the games page links it
    assert names[8] in text_of(desk.get("/open/ww3/start").data)
    page = act(desk, "/open/ww3/start", "/open/ww3/start")
    assert (
        "Game ww3 (werewolf, 8 players) started; phase N0 ends" in page
        and "Host actions: game ww3" in desk.shown
    )
    assert f"{names[8]} <" in desk.shown  # first on the substitutes' list
    page = act(
        desk, "/games/ww3/actions", "/games/ww3/actions/substitute", source="list", old=names[0]
    )
    assert f"Game ww3: {names[8]} now plays {names[0]}" in page
    assert (
        act(desk, "/open/ww3/start", "/open/ww3/start").count("Game ww3 has started already") == 1
    )
