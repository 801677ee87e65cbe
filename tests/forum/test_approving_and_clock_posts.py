"""The host's approving (docs/design.md: The host's view, Command line): `pbp draft approve
<game>` takes the oldest draft not approved yet (an optional one, the opening post or a
running count, only when no other waits), `--all` approves every waiting draft that
passes the leak check and lists those that fail with why; `pbp extend`, `pause` and
`resume` take an optional reason and draft a short host post for the thread."""

from __future__ import annotations

import sys

from pbp.cli import main
from pbp.storage.drafts import APPROVED, DRAFT, DraftBook

from tests.forum.conftest import stored


def drafts(folder) -> dict[str, dict]:
    moderator, game = stored(folder)
    with moderator:
        return {row.phase: row for row in DraftBook(game.file).all()}


def plain(markdown: str) -> str:
    """The post's words without the dialect's escapes."""
    return markdown.replace("\\", "")


def statuses(folder) -> dict[str, str]:
    return {phase: row.status for phase, row in drafts(folder).items()}


def test_approve_without_a_phase_takes_the_oldest_draft_not_approved_yet(host_game, capsys):
    assert main(["advance", "inf1"]) == 0
    assert main(["advance", "inf1"]) == 0
    capsys.readouterr()
    # the posts that hold the thread up first, oldest first; the optional opening post last
    for expected in ("T0-class", "T1-movement", "T1-decision", "opening"):
        assert main(["draft", "approve", "inf1"]) == 0
        assert capsys.readouterr().out.startswith(f"Approved {expected}.")
    assert set(statuses(host_game).values()) == {APPROVED}
    assert main(["draft", "approve", "inf1"]) == 2
    assert capsys.readouterr().err == (
        "pbp: Game inf1 has no draft waiting for approval; `pbp status inf1` lists its drafts.\n"
    )


def test_approve_all_approves_every_clean_draft_and_lists_the_failing_one_with_why(
    host_game, monkeypatch, capsys
):
    assert main(["advance", "inf1"]) == 0  # T1-movement drafted
    moderator, game = stored(host_game)
    with moderator:
        red = next(
            n for n in game.record.tokens if game.rules.view(game.state, n)["me"]["team"] == "red"
        )
    script = host_game / "editor.py"
    script.write_text(
        f"import sys\nopen(sys.argv[1], 'a').write('\\n{red} is red, trust me.\\n')\n"
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    assert main(["draft", "edit", "inf1", "T0-class"]) == 0
    assert main(["pause", "inf1", "--reason", "a holiday", "--no-send"]) == 0  # a host post too
    capsys.readouterr()
    assert main(["draft", "approve", "inf1", "--all"]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "Approved 3: opening, T1-movement, T1-decision/host-1. `pbp publish` (or `pbp run`) "
        "publishes them."
    )
    assert out[1].startswith(
        f"Not approved T0-class: The draft for T0-class fails the leak check: "
        f"the draft names {red}'s team red"
    )
    assert statuses(host_game) == {
        "opening": APPROVED,
        "T0-class": DRAFT,
        "T1-movement": APPROVED,
        "T1-decision/host-1": APPROVED,
    }
    # Nothing left that passes: a second --all approves nothing and says why again.
    assert main(["draft", "approve", "inf1", "--all"]) == 2
    assert capsys.readouterr().out.startswith("Not approved T0-class:")


def test_approve_all_refuses_a_phase_or_force_and_a_game_with_nothing_waiting(host_game, capsys):
    assert main(["draft", "approve", "inf1", "T0-class", "--all"]) == 2
    assert "--all approves every waiting draft" in capsys.readouterr().err
    assert main(["draft", "approve", "inf1", "--all"]) == 0
    assert capsys.readouterr().out.startswith("Approved 2: opening, T0-class.")
    assert main(["draft", "approve", "inf1", "--all"]) == 2
    assert capsys.readouterr().err == (
        "pbp: Game inf1 has no draft waiting for approval; `pbp status inf1` lists its drafts.\n"
    )


def test_extend_pause_and_resume_tell_the_reason_and_draft_a_short_host_post(host_game, capsys):
    # Far ahead: this game runs on the real clock, and `extend` refuses a moment already past.
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
    assert capsys.readouterr().out.splitlines()[0] == (
        "Game inf1: the deadline is now Tue 1 Dec 2099, 18:00 UTC; a post for the thread is drafted."
    )
    assert main(["pause", "inf1", "--no-send"]) == 0
    assert main(["resume", "inf1", "--reason", "back from the holiday", "--no-send"]) == 0
    rows = drafts(host_game)
    extended, paused, resumed = (rows[f"T1-movement/host-{n}"] for n in (1, 2, 3))
    assert extended.title == "Turn 1 — movement: the deadline moves" and extended.leaks == ()
    assert plain(extended.text) == (
        "**The deadline has moved.** Turn 1 — movement now ends **Tue 1 Dec 2099, "
        "18:00 UTC**.\n\nReason: Bruno asked for more time.\n"
    )
    assert paused.title == "Turn 1 — movement: the game is paused"
    assert plain(paused.text).startswith(
        "**The game is paused.** The clock of Turn 1 — movement is stopped with "
    )
    assert "Reason" not in paused.text  # no reason given, none said
    assert resumed.title == "Turn 1 — movement: the game resumes"
    assert plain(resumed.text).endswith("\n\nReason: back from the holiday.\n")
    moderator, game = stored(host_game)
    with moderator:  # the players are told the reason in their notice
        notices = [
            r for r in game.file.outbox.all() if r["kind"] == "notice" and r["recipient"] == "Alice"
        ]
        assert "The host's reason: Bruno asked for more time." in notices[0]["body"]
        assert "The host's reason: back from the holiday." in notices[-1]["body"]
