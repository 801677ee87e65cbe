"""Host review over a real stored game: drafts made by the resolution itself, `pbp draft
show|edit|approve|tally`, `pbp publish`, and APPROVE by mail through the desk (docs/design.md:
Public posts)."""

from __future__ import annotations

import hashlib
import sys

from pbp.cli import main
from pbp.desk import Desk
from pbp.storage.drafts import APPROVED, DRAFT, DraftBook
from pbp.game.stored import load
from pbp.mail.ingest.inbound import parse_inbound
from pbp.ports import InboundMail, OrderBlock, RawMail

from tests.forum.conftest import stored
from pbp.storage.host_token import host_token


def editor(monkeypatch, tmp_path, python_code: str) -> None:
    script = tmp_path / "editor.py"
    script.write_text("import sys\npath = sys.argv[1]\ntext = open(path).read()\n" + python_code)
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")


def test_the_resolution_drafts_the_post_and_mails_it_to_the_host(host_game, capsys):
    moderator, game = stored(host_game)
    with moderator:
        opening, row = DraftBook(game.file).all()  # the opening post is drafted with the game
        assert (opening.phase, opening.kind, opening.leaks) == ("opening", "opening", ())
        assert (row.phase, row.status, row.leaks) == ("T0-class", DRAFT, ())
        mails = [r for r in game.file.outbox.all() if r["kind"] == "draft"]
        assert [(m["phase"], m["address"]) for m in mails] == [
            ("opening", "host@example.org"),
            ("T0-class", "host@example.org"),
        ]
        assert "BEGIN ORDERS inf1 opening" in mails[0]["body"]
        assert "BEGIN ORDERS inf1 T0-class" in mails[1]["body"] and "# APPROVE" in mails[1]["body"]
    assert main(["draft", "show", "inf1"]) == 0
    assert "The operation begins" in capsys.readouterr().out


def test_the_hosts_edit_survives_approval_and_publishing(host_game, monkeypatch, capsys):
    editor(monkeypatch, host_game, "open(path, 'w').write(text + '\\nGood luck, everyone!\\n')\n")
    assert main(["draft", "edit", "inf1"]) == 0
    moderator, game = stored(host_game)
    with moderator, game.file.transaction():
        row = DraftBook(game.file).get("T0-class")
        assert row.edited and "Good luck, everyone!" in row.text
        # A second drafting of the same phase never overwrites the host's edit.
        DraftBook(game.file).save_generated("T0-class", "t", "regenerated\n", (), "markdown", [])
    assert main(["draft", "approve", "inf1"]) == 0
    assert main(["publish"]) == 0
    (post,) = (host_game / "posts" / "inf1").iterdir()
    assert "Good luck, everyone!" in post.read_text() and "regenerated" not in post.read_text()


def test_an_edit_naming_a_hidden_team_needs_force(host_game, monkeypatch, capsys):
    moderator, game = stored(host_game)
    with moderator:
        red = next(
            n for n in game.record.tokens if game.rules.view(game.state, n)["me"]["team"] == "red"
        )
    editor(
        monkeypatch, host_game, f"open(path, 'w').write(text + '\\n{red} is red, trust me.\\n')\n"
    )
    assert main(["draft", "edit", "inf1"]) == 0
    assert f"LEAK: the draft names {red}'s team red" in capsys.readouterr().out
    assert main(["draft", "approve", "inf1"]) == 2
    assert "fails the leak check" in capsys.readouterr().err
    assert main(["draft", "approve", "inf1", "--force"]) == 0
    moderator, game = stored(host_game)
    with moderator:
        assert DraftBook(game.file).get("T0-class").status == APPROVED


def host_mail(token: str, phase: str = "T0-class", key: str = "1:1") -> InboundMail:
    block = OrderBlock(game="inf1", phase=phase, token=token, lines=("APPROVE",))
    return InboundMail(
        key=key,
        sha256=key * 8,
        sender="host@example.org",
        message_id=f"<{key}@host>",
        subject="Re: draft",
        blocks=(block,),
    )


def test_an_email_approval_with_a_wrong_token_is_refused_and_the_right_one_approves(host_game):
    moderator, game = stored(host_game)
    with moderator:
        desk = Desk(moderator)
        assert desk.receive(host_mail("wrong-token")) == "rejected"
        game = load(moderator, "inf1")
        assert DraftBook(game.file).get("T0-class").status == DRAFT
        (refusal,) = [r for r in game.file.outbox.all() if r["kind"] == "host-reply"]
        assert (
            refusal["body"].startswith("Refused: the TOKEN")
            and refusal["in_reply_to"] == "<1:1@host>"
        )
        token = host_token(game.file)
        assert desk.receive(host_mail(token, key="1:2")) == "processed"
        assert DraftBook(load(moderator, "inf1").file).get("T0-class").status == APPROVED
        # Any other mail from the host gets help, and changes nothing.
        other = InboundMail(
            key="1:3",
            sha256="c" * 64,
            sender="host@example.org",
            message_id="<1:3@host>",
            subject="hello",
            commands=("HELLO",),
        )
        assert desk.receive(other) == "rejected"
        replies = [
            r for r in load(moderator, "inf1").file.outbox.all() if r["kind"] == "host-reply"
        ]
        assert "To approve a draft" in replies[-1]["body"]


def test_a_running_tally_counts_the_latest_accepted_votes(host_game, capsys):
    assert main(["advance", "inf1"]) == 0  # T1-movement: now in T1-decision, where votes are cast
    moderator, game = stored(host_game)
    with moderator, game.file.transaction():
        assert game.phase.id == "T1-decision"
        for player, text in (
            ("Alice", "VOTE Bruno"),
            ("Chloe", "VOTE Bruno"),
            ("Alice", "VOTE Chloe"),
        ):
            game.file.orders.insert({"phase": "T1-decision", "player": player, "text": text})
    capsys.readouterr()
    assert main(["draft", "tally", "inf1"]) == 0
    out = capsys.readouterr().out
    assert "* **Bruno**: 1 (Chloe)" in out and "* **Chloe**: 1 (Alice)" in out
    assert "No vote yet from: Bruno, Dmitri, Elena, Farid" in out


def host_reply(body: str, key: str) -> InboundMail:
    """A real mail from the host's address, parsed by pbp's own mail parser."""
    data = (
        f"From: The Host <host@example.org>\nTo: moderator@pbp.example\nSubject: Re: [inf1] Draft\n"
        f"Message-ID: <{key}@host>\n\n{body}"
    ).encode()
    return parse_inbound(
        RawMail(key=key, data=data, sha256=hashlib.sha256(data).hexdigest()),
        ("moderator@pbp.example",),
        1_000_000,
    )


def quoted(text: str) -> str:
    return "".join(f"> {line}\n" for line in text.splitlines())


def test_an_approve_line_with_the_host_token_approves_and_a_wrong_or_missing_token_is_refused(
    host_game,
):
    moderator, game = stored(host_game)
    with moderator:
        desk = Desk(moderator)
        token = host_token(game.file)
        draft_mail = next(r for r in game.file.outbox.all() if r["kind"] == "draft")["body"]
        refusals = [
            (
                f"APPROVE inf1 T0-class\nTOKEN: wrong-token\n\n{quoted(draft_mail)}",
                "Refused: the TOKEN",
            ),
            (f"APPROVE inf1 T0-class wrong-token\n\n{quoted(draft_mail)}", "Refused: the TOKEN"),
            (
                f"Looks fine.\nAPPROVE inf1 T0-class\n\n{quoted(draft_mail)}",
                "Refused: your approval of inf1 T0-class has no host token",
            ),
        ]
        for number, (body, answer) in enumerate(refusals):
            assert desk.receive(host_reply(body, f"2:{number}")) == "rejected"
            assert DraftBook(load(moderator, "inf1").file).get("T0-class").status == DRAFT
            reply = [
                r for r in load(moderator, "inf1").file.outbox.all() if r["kind"] == "host-reply"
            ][-1]
            assert reply["body"].startswith(answer), reply["body"]
        # The line form, the host's words above the quoted draft mail (its own block commented out).
        body = f"Looks fine to me.\n\nAPPROVE inf1 t0-class\nTOKEN: {token}\n\n{quoted(draft_mail)}"
        assert desk.receive(host_reply(body, "2:9")) == "processed"
        assert DraftBook(load(moderator, "inf1").file).get("T0-class").status == APPROVED


def test_the_token_on_the_approve_line_approves_and_any_other_reply_gets_help(host_game):
    moderator, game = stored(host_game)
    with moderator:
        desk = Desk(moderator)
        token = host_token(game.file)
        draft_mail = [r for r in game.file.outbox.all() if r["kind"] == "draft"][-1]["body"]
        # Replied to unquoted (some clients do): the draft mail's own text approves nothing.
        assert desk.receive(host_reply(f"Hold on, not yet.\n\n{draft_mail}", "3:1")) == "rejected"
        help_reply = [
            r for r in load(moderator, "inf1").file.outbox.all() if r["kind"] == "host-reply"
        ][-1]
        assert help_reply["body"].startswith("pbp understood no approval in your mail.")
        assert "BEGIN ORDERS inf1 opening" in help_reply["body"]  # the oldest draft not published
        assert DraftBook(load(moderator, "inf1").file).get("T0-class").status == DRAFT
        assert desk.receive(host_reply(f"APPROVE inf1 T0-class {token}\n", "3:2")) == "processed"
        assert DraftBook(load(moderator, "inf1").file).get("T0-class").status == APPROVED


def test_the_draft_mails_block_with_approve_uncommented_approves(host_game):
    moderator, game = stored(host_game)
    with moderator:
        draft_mail = [r for r in game.file.outbox.all() if r["kind"] == "draft"][-1]["body"]
        block = draft_mail[draft_mail.index("BEGIN ORDERS") :].replace("# APPROVE", "APPROVE")
        assert Desk(moderator).receive(host_reply(f"Publish it.\n\n{block}", "4:1")) == "processed"
        assert DraftBook(load(moderator, "inf1").file).get("T0-class").status == APPROVED
