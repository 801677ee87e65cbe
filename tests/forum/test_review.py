"""Host review over a real stored game: drafts made by the resolution itself, `pbp draft
show|edit|approve|tally`, `pbp publish`, and APPROVE by mail through the desk (issue 6:
Host review; Proof)."""
from __future__ import annotations

import configparser
import sys

import pytest

from pbp.cli import main
from pbp.desk import Desk
from pbp.forum.book import APPROVED, DRAFT, DraftBook
from pbp.games import load
from pbp.moderator import Moderator
from pbp.ports import InboundMail, OrderBlock
from pbp.settings import load_settings

ROSTER = "name,email,timezone,forum_name\n" + "".join(
    f"{n},{n.lower()}@example.org,,{n.lower()}_r\n" for n in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid"))


@pytest.fixture
def host_game(tmp_path, monkeypatch, capsys):
    """An Infiltration game whose first phase is resolved (so its first draft exists)."""
    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", str(tmp_path / "data")]) == 0
    config = configparser.ConfigParser(interpolation=None)
    config.read(settings)
    config["forum"]["host_address"] = "host@example.org"
    config["forum"]["posts"] = str(tmp_path / "posts")
    with open(settings, "w") as handle:
        config.write(handle)
    (tmp_path / "roster.csv").write_text(ROSTER)
    monkeypatch.setenv("PBP_SETTINGS", str(settings))
    assert main(["new-game", "--ruleset", "infiltration", "--roster", str(tmp_path / "roster.csv"),
                 "--id", "inf1", "--seed", "7", "--no-send"]) == 0
    assert main(["advance", "inf1"]) == 0
    capsys.readouterr()
    return tmp_path


def stored(folder):
    moderator = Moderator(load_settings(str(folder / "pbp.ini")))
    return moderator, load(moderator, "inf1")


def editor(monkeypatch, tmp_path, python_code: str) -> None:
    script = tmp_path / "editor.py"
    script.write_text("import sys\npath = sys.argv[1]\ntext = open(path).read()\n" + python_code)
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")


def test_the_resolution_drafts_the_post_and_mails_it_to_the_host(host_game, capsys):
    moderator, game = stored(host_game)
    with moderator:
        (row,) = DraftBook(game.file).all()
        assert (row["phase"], row["status"], row["leaks"]) == ("T0-class", DRAFT, [])
        mails = [r for r in game.file.outbox.all() if r["kind"] == "draft"]
        assert [m["address"] for m in mails] == ["host@example.org"]
        assert "BEGIN ORDERS inf1 T0-class" in mails[0]["body"] and "# APPROVE" in mails[0]["body"]
    assert main(["draft", "show", "inf1"]) == 0
    assert "The operation begins" in capsys.readouterr().out


def test_the_hosts_edit_survives_approval_and_publishing(host_game, monkeypatch, capsys):
    editor(monkeypatch, host_game, "open(path, 'w').write(text + '\\nGood luck, everyone!\\n')\n")
    assert main(["draft", "edit", "inf1"]) == 0
    moderator, game = stored(host_game)
    with moderator, game.file.transaction():
        row = DraftBook(game.file).get("T0-class")
        assert row["edited"] and "Good luck, everyone!" in row["text"]
        # A second drafting of the same phase never overwrites the host's edit.
        DraftBook(game.file).save_generated("T0-class", "t", "regenerated\n", (), "markdown", [])
    assert main(["draft", "approve", "inf1"]) == 0
    assert main(["publish"]) == 0
    (post,) = (host_game / "posts" / "inf1").iterdir()
    assert "Good luck, everyone!" in post.read_text() and "regenerated" not in post.read_text()


def test_an_edit_naming_a_hidden_team_needs_force(host_game, monkeypatch, capsys):
    moderator, game = stored(host_game)
    with moderator:
        red = next(n for n in game.record["tokens"] if game.rules.view(game.state, n)["me"]["team"] == "red")
    editor(monkeypatch, host_game, f"open(path, 'w').write(text + '\\n{red} is red, trust me.\\n')\n")
    assert main(["draft", "edit", "inf1"]) == 0
    assert f"LEAK: the draft names {red}'s team red" in capsys.readouterr().out
    assert main(["draft", "approve", "inf1"]) == 2
    assert "fails the leak check" in capsys.readouterr().err
    assert main(["draft", "approve", "inf1", "--force"]) == 0
    moderator, game = stored(host_game)
    with moderator:
        assert DraftBook(game.file).get("T0-class")["status"] == APPROVED


def host_mail(token: str, phase: str = "T0-class", key: str = "1:1") -> InboundMail:
    block = OrderBlock(game="inf1", phase=phase, token=token, lines=("APPROVE",))
    return InboundMail(key=key, sha256=key * 8, sender="host@example.org", message_id=f"<{key}@host>",
                       subject="Re: draft", blocks=(block,))


def test_an_email_approval_with_a_wrong_token_is_refused_and_the_right_one_approves(host_game):
    moderator, game = stored(host_game)
    with moderator:
        desk = Desk(moderator)
        assert desk.receive(host_mail("wrong-token")) == "rejected"
        game = load(moderator, "inf1")
        assert DraftBook(game.file).get("T0-class")["status"] == DRAFT
        (refusal,) = [r for r in game.file.outbox.all() if r["kind"] == "host-reply"]
        assert refusal["body"].startswith("Refused: the TOKEN") and refusal["in_reply_to"] == "<1:1@host>"
        token = DraftBook(game.file).host_token()
        assert desk.receive(host_mail(token, key="1:2")) == "processed"
        assert DraftBook(load(moderator, "inf1").file).get("T0-class")["status"] == APPROVED
        # Any other mail from the host gets help, and changes nothing.
        other = InboundMail(key="1:3", sha256="c" * 64, sender="host@example.org", message_id="<1:3@host>",
                            subject="hello", commands=("HELLO",))
        assert desk.receive(other) == "rejected"
        replies = [r for r in load(moderator, "inf1").file.outbox.all() if r["kind"] == "host-reply"]
        assert "To approve a draft" in replies[-1]["body"]


def test_a_running_tally_counts_the_latest_accepted_votes(host_game, capsys):
    assert main(["advance", "inf1"]) == 0  # T1-movement: now in T1-decision, where votes are cast
    moderator, game = stored(host_game)
    with moderator, game.file.transaction():
        assert game.phase.id == "T1-decision"
        for player, text in (("Alice", "VOTE Bruno"), ("Chloe", "VOTE Bruno"), ("Alice", "VOTE Chloe")):
            game.file.orders.insert({"phase": "T1-decision", "player": player, "text": text})
    capsys.readouterr()
    assert main(["draft", "tally", "inf1"]) == 0
    out = capsys.readouterr().out
    assert "* **Bruno**\\: 1 \\(Chloe\\)" in out and "* **Chloe**\\: 1 \\(Alice\\)" in out
    assert "Did not vote\\: Bruno, Dmitri, Elena, Farid" in out
