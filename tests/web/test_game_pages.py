"""The games page and a game's page through the desk's test client: what `pbp status`
says of each game, the roster, orders, count and map of one, the reply box going through
`pbp reply`'s function, and the version the pages poll (docs/design.md: The host's desk
in the browser)."""

from __future__ import annotations

import re

from tests.web.conftest import csrf_of
from tests.web.talk import add_infiltration_game, outbox_to, player_writes


def text_of(page: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.decode()))


def test_the_games_page_says_what_pbp_status_says_of_each_game(site, desk):
    page = desk.get("/")
    assert page.status_code == 200
    shown = text_of(page.data)
    assert "Night 0 (N0)" in shown
    # The host's zone (CET, or CEST in summer), then UTC, which names its day when it differs
    assert re.search(r"\d\d:\d\d CES?T \((?:\w{3} \d+ \w{3} )?\d\d:\d\d UTC\)", shown), shown
    assert "1 draft to approve (opening)" in shown
    assert "8 waiting, 0 failed" in shown
    assert "pbp run is not running" in shown
    assert b'href="/games/w1"' in page.data


def test_the_games_page_names_who_is_awaited_and_who_wrote_to_the_host(site, desk):
    assert site.pbp("advance", "w1") == 0  # night 0 has no orders; day 1's vote awaits everyone
    player_writes(site, "w1", "Chloe", "Is the vote at noon?")
    shown = text_of(desk.get("/").data)
    assert re.search(r"0 in 8 awaited: Alice , Bruno , Chloe", shown), shown
    assert "messages from Chloe" in shown


def test_a_game_page_shows_the_roster_orders_and_count(site, desk):
    assert site.pbp("advance", "w1") == 0
    assert site.pbp("submit", "w1", "Alice", "NOMINATE Bruno", "--no-send") == 0
    shown = text_of(desk.get("/games/w1").data)
    assert "Roster" in shown and "Witch (village)" in shown and "Australia/Sydney" in shown
    assert "1 of 8 in" in shown and "NOMINATE Bruno" in shown and "entered by the host" in shown
    assert "Bruno 1 Alice (entered by the host)" in shown
    assert site.pbp("extend", "w1", "2h", "--reason", "a holiday", "--no-send") == 0
    assert re.search(
        r"Your past actions .* extend phase: D1-nominate ; deadline: 2026",
        text_of(desk.get("/games/w1").data),
    )


def test_an_unknown_game_is_one_sentence_on_a_404_page(desk):
    page = desk.get("/games/nope")
    assert page.status_code == 404
    assert "There is no game called &#39;nope&#39;; the games page lists every game." in text_of(
        page.data
    )
    assert desk.get("/games/nope/version").status_code == 404
    assert desk.get("/games/..%2Fregistry/map.svg").status_code == 404


def test_the_infiltration_map_is_an_svg_image_of_its_own_route(site, desk):
    add_infiltration_game(site)
    page = desk.get("/games/i1")
    assert b'<img class="map" src="/games/i1/map.svg"' in page.data
    picture = desk.get("/games/i1/map.svg")
    assert picture.status_code == 200 and picture.mimetype == "image/svg+xml"
    assert picture.data.lstrip().startswith(b"<svg") or b"<svg" in picture.data[:400]
    assert "script-src 'self'" in picture.headers["Content-Security-Policy"]
    assert desk.get("/games/w1/map.svg").status_code == 404  # Werewolf draws no map
    assert b"map.svg" not in desk.get("/games/w1").data


def test_the_reply_box_queues_the_answer_as_pbp_reply_does(site, desk):
    player_writes(site, "w1", "Dmitri", "Can I <b>vote</b> twice?\u202e")
    page = desk.get("/games/w1")
    assert (
        b"<bdi>Can I &lt;b&gt;vote&lt;/b&gt; twice?\xe2\x9f\xa8U+202E\xe2\x9f\xa9</bdi>"
        in page.data
    )
    before = outbox_to(site, "w1", "Dmitri", "message")
    answered = desk.post(
        "/games/w1/reply",
        data={"csrf_token": csrf_of(page.data), "player": "Dmitri", "text": "Once a day."},
        follow_redirects=True,
    )
    assert "Your answer to Dmitri is queued; pbp run sends it." in text_of(answered.data)
    (mail,) = outbox_to(site, "w1", "Dmitri", "message")[len(before) :]
    assert "Once a day." in mail["body"] and mail["status"] == "queued"


def test_an_empty_answer_or_a_forged_form_changes_nothing(site, desk):
    player_writes(site, "w1", "Dmitri", "Hello?")
    page = desk.get("/games/w1")
    refused = desk.post(
        "/games/w1/reply", data={"csrf_token": csrf_of(page.data), "player": "Dmitri", "text": " "}
    )
    assert refused.status_code == 400
    assert "Your answer was not sent: The message is empty; write its text." in text_of(
        refused.data
    )
    long = "x" * 100_000
    refused = desk.post(
        "/games/w1/reply", data={"csrf_token": csrf_of(page.data), "player": "Dmitri", "text": long}
    )
    assert (
        "at most" in text_of(refused.data)
        and f"data-kept>{long}</textarea>" in refused.data.decode()
    )
    assert desk.post("/games/w1/reply", data={"player": "Dmitri", "text": "hi"}).status_code == 400
    assert outbox_to(site, "w1", "Dmitri", "message") == []


def test_the_versions_change_when_the_game_changes(site, desk):
    game_before, folder_before = desk.get("/games/w1/version").json, desk.get("/version").json
    assert game_before == desk.get("/games/w1/version").json  # unchanged while nothing happens
    site.pbp("extend", "w1", "2h", "--no-send")
    assert desk.get("/games/w1/version").json != game_before
    assert desk.get("/version").json != folder_before


def test_the_games_page_follows_a_change_it_kept_a_part_from_before(site, desk):
    from pbp.storage.datafolder import DataFolder
    from pbp.web.game_list import folder_stamp

    assert site.pbp("advance", "w1") == 0
    assert "0 in 8 awaited" in text_of(desk.get("/").data)
    with DataFolder(site.data, writer=False) as folder:
        assert (
            folder_stamp(folder) is not None
        )  # the index vouches for every game: one stamp is read
    assert site.pbp("submit", "w1", "Alice", "NOMINATE Bruno", "--no-send") == 0
    assert re.search(r"1 in: Alice 7 awaited", text_of(desk.get("/").data))


def test_the_games_page_pages_through_many_games(site, desk, monkeypatch):
    import pbp.web.games

    add_infiltration_game(site)
    monkeypatch.setattr(pbp.web.games, "PAGE_SIZE", 1)
    first, second = text_of(desk.get("/").data), text_of(desk.get("/?page=2").data)
    assert "Page 1 of 2" in first and "werewolf" in first and "infiltration" not in first
    assert "Page 2 of 2" in second and "infiltration" in second and "werewolf" not in second
    assert "Page 2 of 2" in text_of(desk.get("/?page=99").data)


def test_the_games_page_follows_a_change_while_a_writer_holds_the_index_unclean(site, desk):
    from pbp.storage.game_index import UNCLEAN_MARK

    assert site.pbp("advance", "w1") == 0
    assert "0 in 8 awaited" in text_of(desk.get("/").data)
    (site.data / UNCLEAN_MARK).touch()  # as a writer in the middle of its session leaves it
    assert site.pbp("submit", "w1", "Alice", "NOMINATE Bruno", "--no-send") == 0
    (site.data / UNCLEAN_MARK).touch()
    assert re.search(r"1 in: Alice 7 awaited", text_of(desk.get("/").data))
