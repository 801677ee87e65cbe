"""The mails pbp sends unasked about a game's thread are worded by templates
(templates/mail/player_note.j2, host_note.j2 and the macros of _verdicts.j2; docs/design.md:
Extension points — re-theming) and read, subject and body, exactly as they did when the
code wrote them: each expected text below is the sentence the code used to compose."""

from __future__ import annotations

import pytest

from pbp.mail.wrapping import wrap_body
from pbp.render.renderer import Renderer
from pbp.render.verdicts import Accepted, Note, Refused, Verdict

GAME = {"id": "ww7", "ruleset": "werewolf"}
DEADLINE = "Friday 4 December 2026 at 20:00 (Europe/Paris)"
ERROR = "Reddit answered 503 Service Unavailable: the server is busy, try again later " * 3


def mail(template: str, note: Verdict) -> tuple[str, str]:
    rendered = Renderer().render(template, "werewolf", game=GAME, note=note)
    return rendered.subject, wrap_body(rendered.body)


@pytest.mark.parametrize("posts", [0, 1, 2])
def test_the_prod_reads_as_before(posts):
    note = Note(
        "prod",
        game_id="ww7",
        day="Day 2",
        posts=posts,
        wanted=3,
        phase_words="Day 2 — vote",
        deadline=DEADLINE,
    )
    assert mail("player_note", note) == (
        "[ww7] Day 2: please post in the thread",
        wrap_body(
            f"You have written {posts} post{'s' if posts != 1 else ''} in the thread of game ww7 on Day 2; "
            f"the host asks every player for at least 3 a day. The deadline of Day 2 — vote is {DEADLINE}.\n"
        ),
    )


def test_the_link_code_reads_as_before():
    rendered = Renderer().render(
        "player_note",
        "werewolf",
        game=GAME,
        note=Note("forum_link", game_id="ww7", code="kq7x-22mp"),
    )
    assert (rendered.subject, rendered.body) == (
        "[ww7] Your forum account",
        "Game ww7 takes votes from its public thread, and pbp does not know your forum "
        "account yet. To tell it, post this line in the game's thread from your account:\n\n"
        "    LINK kq7x-22mp\n\n"
        "From that post on, your posts count as yours: your votes are counted and your posts "
        "are counted for activity. The code works once, for you alone; keep it to yourself until "
        "you post it.\n",
    )


def test_a_thread_votes_receipt_and_refusal_read_as_their_verdicts_words():
    renderer = Renderer()
    counted = Accepted(
        "thread_vote_counted",
        game_id="ww7",
        post="https://forum.example/p/9",
        written="today",
        line="VOTE Bruno",
        phase_words="Day 2 — vote",
        lines=("VOTE Bruno",),
    )
    refused = Refused(
        "thread_vote_not_counted",
        reason="late",
        game_id="ww7",
        post="p9",
        written="today",
        said="VOTE Bruno " * 30,
        phase_words="Day 2 — vote",
        standing=("VOTE Chloe",),
    )
    assert mail("player_note", counted) == (
        "[ww7] Your post in the thread is counted",
        wrap_body(renderer.word(counted) + "\n"),
    )
    assert mail("player_note", refused) == (
        "[ww7] Your post in the thread was not counted",
        wrap_body(renderer.word(refused) + "\n"),
    )


def test_the_hosts_list_of_posts_not_counted_reads_as_before():
    notes = (
        'Zed (u/zed) voted although dead: "VOTE Bruno"',
        'u/stranger is no player: "VOTE Alice"',
    )
    assert mail("host_note", Note("thread_notes", game_id="ww7", notes=notes)) == (
        "[ww7] Posts in the thread not counted",
        wrap_body(
            "pbp read the thread of game ww7; these posts were not counted as they stand:\n\n"
            + "\n".join(f"- {note}" for note in notes)
            + "\n\nYou can enter a vote you accept by hand with "
            "`pbp submit ww7 <player> VOTE <choice>`; `pbp status ww7` lists these notes.\n"
        ),
    )


def test_the_unreadable_thread_reads_as_before():
    note = Note("thread_unreadable", game_id="ww7", phase_words="Day 2 — vote", error=ERROR[:300])
    assert mail("host_note", note) == (
        "[ww7] Day 2 — vote waits: the thread cannot be read",
        wrap_body(
            f"The deadline of Day 2 — vote in game ww7 has passed, and pbp reads the thread one "
            f"last time before it resolves the phase, to count every vote posted in time. The "
            f"forum cannot be read now: {ERROR[:300].strip()}.\n\npbp tries again every few minutes and "
            f"resolves as soon as the thread is read. To resolve now with the votes read so far, "
            f"run `pbp advance ww7 --without-thread`.\n"
        ),
    )


def test_the_thread_watch_reads_as_before():
    warning = "Zed (u/zed) posted in the thread although they were dead (comment c1)."
    rendered = Renderer().render(
        "host_note",
        "werewolf",
        game=GAME,
        note=Note("thread_watch", game_id="ww7", player="Zed", warning=warning),
    )
    assert (rendered.subject, rendered.body) == (
        "[ww7] Thread watch: Zed posted",
        f"{warning}\nA host kill is `pbp modkill ww7 Zed <reason>`.\n",
    )


def test_a_posts_words_are_values_never_template_source():
    """A forum name or a post's line that looks like Jinja is written as it is."""
    note = Note("thread_notes", game_id="ww7", notes=("{{ 7 * 7 }} {% raw %}",))
    subject, body = mail("host_note", note)
    assert "- {{ 7 * 7 }} {% raw %}\n" in body and "49" not in body


def test_a_teams_picks_are_worded_one_line_per_order():
    picks = Note(
        "picks",
        channel="pack",
        phase_words="Night 1",
        orders=(("KILL", (("Bruno", "KILL Farid"), ("Elena", None))), ("BITE", (("Hiro", None),))),
    )
    assert Renderer().word(picks) == (
        "The pack's KILL orders so far in Night 1: Bruno: KILL Farid; Elena: none yet.\n"
        "The pack's BITE orders so far in Night 1: Hiro: none yet."
    )
