"""Message blocks are read by the order blocks' scanner (docs/design.md: Conversations —
"Every conversation uses the same block as orders"): quoted replies, HTML-only mail,
attachments, normalisation, orders and messages in one mail, and free text noticed."""

from __future__ import annotations

import base64

from tests.mail.test_inbound import mail, parse

MESSAGE = "BEGIN MESSAGE ww1 pack\nTOKEN: tok-9\n{text}\nEND MESSAGE\n"


def test_a_message_block_gives_game_channel_token_and_text():
    parsed = parse(mail(MESSAGE.format(text="Let us take Bruno.\n\n  Agreed?")))
    (message,) = parsed.messages
    assert (message.game, message.channel, message.token) == ("ww1", "pack", "tok-9")
    assert message.text == "Let us take Bruno.\n\nAgreed?"
    assert not parsed.blocks and not parsed.problems and not parsed.free_text


def test_comment_lines_of_the_form_are_not_part_of_the_text():
    parsed = parse(
        mail("BEGIN MESSAGE ww1 Team\nTOKEN: tok-9\n# write below\n\nHello\nEND MESSAGE\n")
    )
    (message,) = parsed.messages
    assert (message.channel, message.text) == ("team", "Hello")


def test_an_unfilled_message_form_has_empty_text():
    (message,) = parse(
        mail("BEGIN MESSAGE ww1 pack\nTOKEN: tok-9\n# your message here\nEND MESSAGE\n")
    ).messages
    assert message.text == ""


def test_orders_and_a_message_travel_in_one_mail():
    body = "BEGIN ORDERS ww1 N1\nTOKEN: tok-9\nKILL Bruno\nEND ORDERS\n\n" + MESSAGE.format(
        text="I put Bruno."
    )
    parsed = parse(mail(body))
    assert [b.lines for b in parsed.blocks] == [("KILL Bruno",)]
    assert [m.text for m in parsed.messages] == ["I put Bruno."]


def test_a_quoted_message_form_is_used_when_nothing_is_unquoted():
    body = "On Monday pbp wrote:\n" + "".join(
        f"> {line}\n" for line in MESSAGE.format(text="Hi").splitlines()
    )
    parsed = parse(mail(body))
    (message,) = parsed.messages
    assert message.quoted and message.text == "Hi"
    assert not parsed.free_text  # the attribution line is the client's, not the player's


def test_smart_quotes_and_html_only_mail_are_normalised():
    html = (
        "<html><body><p>BEGIN MESSAGE ww1 pack<br>TOKEN: tok-9<br>It\u2019s\u00a0Bruno<br>"
        "END MESSAGE</p></body></html>"
    )
    parsed = parse(
        mail(html, headers="MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n")
    )
    (message,) = parsed.messages
    assert message.text == "It's Bruno"


def test_a_message_in_a_text_attachment():
    body = (
        "--m\nContent-Type: text/plain\n\nSee the attachment.\n"
        '--m\nContent-Type: text/plain; name="m.txt"\nContent-Disposition: attachment; filename="m.txt"\n'
        "Content-Transfer-Encoding: base64\n\n"
        + base64.b64encode(MESSAGE.format(text="From the file").encode()).decode()
        + "\n--m--\n"
    )
    parsed = parse(
        mail(body, headers='MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="m"\n')
    )
    assert [m.text for m in parsed.messages] == ["From the file"]


def test_a_message_without_end_is_a_problem_that_says_how_to_fix_it():
    parsed = parse(mail("BEGIN MESSAGE ww1 pack\nTOKEN: tok-9\nhello\n"))
    assert not parsed.messages
    (problem,) = parsed.problems
    problem = str(problem)  # a Wording, in English as str()
    assert "no END MESSAGE line" in problem and "put END MESSAGE on its own line" in problem


def test_a_message_begin_line_needs_game_and_channel():
    (problem,) = parse(mail("BEGIN MESSAGE ww1\nTOKEN: t\nhi\nEND MESSAGE\n")).problems
    problem = str(problem)  # a Wording, in English as str()
    assert "BEGIN MESSAGE <game-id> <channel>" in problem


def test_free_text_outside_blocks_is_noticed_but_a_signature_is_not():
    assert parse(mail("Quick question: who is the host?\n\n" + MESSAGE.format(text="x"))).free_text
    signed = MESSAGE.format(text="x") + "\n-- \nAlice, sent from my phone\n"
    assert not parse(mail(signed)).free_text
