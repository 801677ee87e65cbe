"""Public host actions in the public thread (docs/design.md: Public posts; "A post carries ... public host
actions (substitutions, modkills)"): each is announced at once in its own short draft,
keyed `<phase>/host-N`, reviewed like any draft and published in order with the phase
posts; names and reasons are escaped for the game's dialect. Also: the file publisher
names each file by its game's own dialect."""

from __future__ import annotations

from pbp.cli import main
from pbp.storage.drafts import DraftBook

from tests.forum.conftest import stored


def drafts(folder) -> dict[str, dict]:
    moderator, game = stored(folder)
    with moderator:
        return {row.phase: row for row in DraftBook(game.file).all()}


def test_a_substitution_is_announced_in_its_own_draft_with_the_names_escaped(host_game):
    assert main(["substitute", "inf1", "Alice", "Zed_b_x", "zed@example.org", "--no-send"]) == 0
    row = drafts(host_game)["T1-movement/host-1"]
    assert (row.kind, row.status, row.leaks, row.dialect) == ("host", "draft", (), "markdown")
    assert row.title == "Turn 1 — announcement from the host"
    # a name holds only letters, digits, _ and - (roster rules); its _ is escaped
    assert "from now on **Zed\\_b\\_x** plays **Alice**." in row.text
    assert "votes and orders still name Alice." in row.text
    moderator, game = stored(host_game)
    with moderator:  # mailed to the host for review, like every draft
        mails = [r for r in game.file.outbox.all() if r["kind"] == "draft"]
        assert "BEGIN ORDERS inf1 T1-movement/host-1" in mails[-1]["body"]


def test_a_modkill_is_announced_with_its_reason_escaped_in_bbcode(host_game):
    assert main(["draft", "settings", "inf1", "--dialect", "bbcode"]) == 0
    assert (
        main(["modkill", "inf1", "Bruno", "spam [url=http://evil.example]here[/url]", "--no-send"])
        == 0
    )
    row = drafts(host_game)["T1-movement/host-1"]
    assert row.dialect == "bbcode" and row.leaks == ()
    assert (
        "[b]Bruno[/b] was removed from the game by the host. Reason: spam "
        "\uff3burl=http://evil.example\uff3dhere\uff3b/url\uff3d"
    ) in row.text
    assert "[url" not in row.text


def test_a_modkill_that_ends_the_game_carries_the_result_and_every_role(host_game):
    for victim in ("Bruno", "Chloe", "Dmitri", "Elena", "Farid"):
        if main(["modkill", "inf1", victim, "gone quiet", "--no-send"]) != 0:
            break
    rows = [r for r in drafts(host_game).values() if r.kind == "host"]
    last = rows[-1].text
    assert "The game is over" in last and "Everyone's role" in last
    assert all("Reason: gone quiet" in r.text for r in rows)


def test_the_end_post_credits_every_player_of_a_substituted_character(host_game):
    """rules/werewolf.md, Victory: "a substituted player [is] credited like any other; the
    end post names every replacement" (the same for every ruleset)."""
    assert main(["substitute", "inf1", "Alice", "Zed", "zed@example.org", "--no-send"]) == 0
    for victim in ("Bruno", "Chloe", "Dmitri", "Elena", "Farid"):
        if main(["modkill", "inf1", victim, "gone quiet", "--no-send"]) != 0:
            break
    last = [r for r in drafts(host_game).values() if r.kind == "host"][-1].text
    assert "Everyone's role" in last
    assert "* **Alice**: Red Warrior (played by Alice, then Zed)" in last


def test_host_posts_publish_in_order_with_the_phase_posts_each_in_its_games_dialect(
    host_game, capsys
):
    # The settings file says markdown; this game switches to BBCode once its first post is
    # approved: that post keeps its markdown, the drafts not approved yet are rendered again.
    assert main(["substitute", "inf1", "Alice", "Zed", "zed@example.org", "--no-send"]) == 0
    assert main(["draft", "approve", "inf1", "T0-class"]) == 0
    assert main(["draft", "settings", "inf1", "--dialect", "bbcode"]) == 0
    assert (
        "Drafts rendered again in bbcode: opening, T1-movement/host-1." in capsys.readouterr().out
    )
    assert main(["modkill", "inf1", "Bruno", "left", "--no-send"]) == 0
    assert main(["advance", "inf1"]) == 0
    order = ["T0-class", "T1-movement/host-1", "T1-movement/host-2", "T1-movement"]
    assert list(drafts(host_game)) == ["opening", *order]  # an opening post the host leaves out
    for phase in order[1:]:
        assert main(["draft", "approve", "inf1", phase]) == 0
    assert main(["publish"]) == 0
    files = sorted(p.name for p in (host_game / "posts" / "inf1").iterdir())
    assert files == [
        "001-T0-class.md",
        "002-T1-movement_host-1.bbcode",
        "003-T1-movement_host-2.bbcode",
        "004-T1-movement.bbcode",
    ]
    assert drafts(host_game)["opening"].status == "withdrawn"
    text = (host_game / "posts" / "inf1" / "003-T1-movement_host-2.bbcode").read_text()
    assert "[b]Bruno[/b] was removed from the game by the host. Reason: left" in text


def test_a_new_dialect_renders_the_drafts_not_yet_approved_again_and_keeps_the_hosts_edit(
    host_game, capsys
):
    """docs/design.md, Public posts: `pbp draft settings --dialect` renders every draft
    still waiting for the host again, from the facts it was drafted from; a draft the host
    edited keeps the edit (and says so), and an approved one keeps its dialect."""
    from pbp.forum.publishing import review

    text = drafts(host_game)["T0-class"].text
    moderator, game = stored(host_game)
    with moderator, game.file.transaction():
        review.edit(game, "T0-class", text + "\nSee you all soon.\n")
    assert main(["draft", "settings", "inf1", "--dialect", "bbcode"]) == 0
    out = capsys.readouterr().out
    assert "Drafts rendered again in bbcode: opening." in out
    assert (
        "Draft T0-class stays in markdown: it holds your edit; edit it with `pbp draft edit inf1 "
        "T0-class`."
    ) in out
    rows = drafts(host_game)
    assert (rows["opening"].dialect, rows["opening"].status) == ("bbcode", "draft")
    assert "[b]" in rows["opening"].text and "**" not in rows["opening"].text
    assert rows["T0-class"].dialect == "markdown" and "See you all soon." in rows["T0-class"].text
