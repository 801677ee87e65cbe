"""parse_inbound: identity, loop rules, text extraction and order blocks
(docs/design.md: Order mail format; Reliability rules — Identity, Loops, Bad input)."""

from __future__ import annotations

import base64
import hashlib

import pytest

from pbp.mail.ingest.inbound import parse_inbound
from pbp.ports import RawMail

OWN = ("moderator@pbp.example",)
FORM = "BEGIN ORDERS g1 T2-movement\nTOKEN: tok-123\n"


def raw(text: str | bytes, key: str = "1:1") -> RawMail:
    data = text.encode("utf-8") if isinstance(text, str) else text
    data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    return RawMail(key=key, data=data, sha256=hashlib.sha256(data).hexdigest())


def mail(body: str, headers: str = "", sender: str = "Alice <alice@example.org>") -> RawMail:
    return raw(
        f"From: {sender}\nTo: moderator@pbp.example\nSubject: orders\n"
        f"Message-ID: <m1@example.org>\n{headers}\n{body}"
    )


def parse(message: RawMail):
    return parse_inbound(message, OWN, max_bytes=1_000_000)


def test_plain_block_is_found_with_token_and_lines():
    parsed = parse(mail(FORM + "MOVE 1A\nEND ORDERS\n"))
    assert parsed.sender == "alice@example.org"
    assert parsed.message_id == "<m1@example.org>"
    assert parsed.no_reply_reason is None
    (block,) = parsed.blocks
    assert (block.game, block.phase, block.token, block.lines) == (
        "g1",
        "T2-movement",
        "tok-123",
        ("MOVE 1A",),
    )
    assert block.has_orders and not block.quoted
    assert parsed.commands == () and parsed.problems == ()


def test_two_from_addresses_have_no_sender():
    assert (
        parse(
            mail(FORM + "MOVE 1A\nEND ORDERS\n", sender="alice@example.org, bob@example.org")
        ).sender
        is None
    )


def test_two_from_headers_have_no_sender():
    parsed = parse(mail(FORM + "END ORDERS\n", headers="From: bob@example.org\n"))
    assert parsed.sender is None


def test_display_name_spoofing_yields_the_real_address():
    parsed = parse(
        mail(FORM + "MOVE 1A\nEND ORDERS\n", sender='"alice@example.org" <mallory@evil>')
    )
    assert parsed.sender == "mallory@evil"


def test_unquoted_address_in_display_name_is_refused():
    parsed = parse(mail(FORM + "MOVE 1A\nEND ORDERS\n", sender="alice@example.org <mallory@evil>"))
    assert parsed.sender is None


def test_reply_to_never_decides_identity():
    parsed = parse(
        mail(
            FORM + "MOVE 1A\nEND ORDERS\n",
            headers="Reply-To: alice@example.org\n",
            sender="mallory@evil.example",
        )
    )
    assert parsed.sender == "mallory@evil.example"


def test_block_line_numbers_count_begin_as_line_one():
    parsed = parse(mail("Hi!\n\n" + FORM + "MOVE 1A\nATACK guard-C\nEND ORDERS\n"))
    (block,) = parsed.blocks
    assert block.first_line_number == 3
    assert block.lines.index("ATACK guard-C") + block.first_line_number == 4
    (block,) = parse(mail(FORM + "# a comment\nATACK guard-C\nEND ORDERS\n")).blocks
    assert block.lines == ("# a comment", "ATACK guard-C") and block.first_line_number == 3


def test_error_on_line_three_is_the_first_order_line():
    (block,) = parse(mail(FORM + "ATACK guard-C\nEND ORDERS\n")).blocks
    assert (block.first_line_number, block.lines[0]) == (3, "ATACK guard-C")


def test_text_outside_the_block_is_ignored():
    parsed = parse(
        mail(
            "Hello moderator,\nhere you go.\n\n"
            + FORM
            + "MOVE 1A\nEND ORDERS\n\nCheers,\n-- \nAlice\n"
        )
    )
    (block,) = parsed.blocks
    assert block.lines == ("MOVE 1A",)
    assert parsed.commands == ()


def test_keywords_are_case_insensitive():
    (block,) = parse(
        mail("begin orders g1 T2-movement\ntoken: tok-123\nMOVE 1A\nend Orders\n")
    ).blocks
    assert (block.game, block.token, block.lines) == ("g1", "tok-123", ("MOVE 1A",))


def test_quoted_form_with_orders_filled_in():
    body = (
        "Here are my orders.\n\nOn Mon, pbp wrote:\n"
        "> Your form:\n> BEGIN ORDERS g1 T2-movement\n> TOKEN: tok-123\n"
        "> # MOVE <room>\n> MOVE 2B\n> END ORDERS\n> \n> Good luck.\n"
    )
    (block,) = parse(mail(body)).blocks
    assert block.quoted and block.has_orders
    assert block.lines == ("# MOVE <room>", "MOVE 2B")
    assert block.token == "tok-123"


def test_quoted_form_with_nothing_filled_in_is_not_a_submission():
    body = "When is the deadline?\n\n> BEGIN ORDERS g1 T2-movement\n> TOKEN: tok-123\n> # MOVE <room>\n>\n> END ORDERS\n"
    parsed = parse(mail(body))
    (block,) = parsed.blocks
    assert block.quoted and not block.has_orders


def test_unquoted_block_is_preferred_over_the_quoted_form():
    body = (
        FORM
        + "MOVE 3C\nEND ORDERS\n\n>> BEGIN ORDERS g1 T2-movement\n>> TOKEN: tok-123\n>> MOVE 1A\n>> END ORDERS\n"
    )
    (block,) = parse(mail(body)).blocks
    assert block.lines == ("MOVE 3C",) and not block.quoted


def test_quoted_block_must_stay_under_one_quote_depth():
    """A line quoted deeper than the block's BEGIN and END breaks it, and the reason says
    so (the block has its END line: "no END ORDERS" would be false)."""
    body = "> BEGIN ORDERS g1 T2-movement\n> TOKEN: tok-123\n>> MOVE 1A\n> END ORDERS\n"
    parsed = parse(mail(body))
    assert parsed.blocks == ()
    assert "has a line quoted at another depth inside it (line 3)" in str(parsed.problems[0])


def test_unterminated_block_is_a_problem():
    parsed = parse(mail(FORM + "MOVE 1A\n"))
    assert parsed.blocks == ()
    assert tuple(map(str, parsed.problems)) == (
        'The block starting "BEGIN ORDERS g1 T2-movement" has no END ORDERS line; '
        "put END ORDERS on its own line after your last order and send it again.",
    )


def test_begin_without_phase_is_a_problem():
    parsed = parse(mail("BEGIN ORDERS g1\nTOKEN: x\nMOVE 1A\nEND ORDERS\n"))
    assert parsed.blocks == () and "must name the game and the phase" in str(parsed.problems[0])


def test_block_without_token_line():
    (block,) = parse(mail("BEGIN ORDERS g1 T2-movement\nMOVE 1A\nEND ORDERS\n")).blocks
    assert block.token is None and block.lines == ("MOVE 1A",) and block.first_line_number == 2


def test_auto_submitted_auto_replied_forbids_a_reply():
    parsed = parse(mail(FORM + "MOVE 1A\nEND ORDERS\n", headers="Auto-Submitted: auto-replied\n"))
    assert parsed.no_reply_reason == "Auto-Submitted: auto-replied"


def test_auto_submitted_no_allows_a_reply():
    assert parse(mail("HELP\n", headers="Auto-Submitted: no\n")).no_reply_reason is None


def test_precedence_bulk_forbids_a_reply():
    assert parse(mail("HELP\n", headers="Precedence: bulk\n")).no_reply_reason == "Precedence: bulk"


def test_list_id_and_empty_return_path_and_own_address_forbid_a_reply():
    assert parse(
        mail("HELP\n", headers="List-Id: <games.example.org>\n")
    ).no_reply_reason.startswith("List-Id")
    assert "empty return path" in parse(mail("HELP\n", headers="Return-Path: <>\n")).no_reply_reason
    assert (
        parse(mail("HELP\n", sender="pbp <Moderator@pbp.example>")).no_reply_reason
        == "sent from our own address"
    )


@pytest.mark.parametrize(
    "headers, sender, reason",
    [
        ("Auto-Submitted: auto-generated\n", None, "Auto-Submitted"),
        ("Auto-Submitted: auto-notified; owner-email=x@example.org\n", None, "Auto-Submitted"),
        ("Precedence: junk\n", None, "Precedence: junk"),
        ("Precedence: LIST\n", None, "Precedence: list"),
        ("List-Id: Players <players.example.org>\n", None, "List-Id"),
        ("Return-Path: <>\n", None, "empty return path"),
        ("", "Mail Delivery System <MAILER-DAEMON@mx.example.org>", "MAILER-DAEMON"),
        ("", "postmaster@example.org", "MAILER-DAEMON or postmaster"),
        ("", "pbp <MODERATOR@pbp.example>", "our own address"),
    ],
)
def test_each_loop_rule_forbids_a_reply(headers, sender, reason):
    """docs/design.md: Loops — never reply to mail with `Auto-Submitted` other than `no`,
    `Precedence: bulk|junk|list`, `List-Id`, an empty return path, `MAILER-DAEMON`, or
    our own address."""
    parsed = parse(mail("HELP\n", headers=headers, sender=sender or "Alice <alice@example.org>"))
    assert reason in parsed.no_reply_reason


@pytest.mark.parametrize(
    "headers",
    ["Auto-Submitted: no\n", "Precedence: first-class\n", "Return-Path: <alice@example.org>\n"],
)
def test_ordinary_headers_allow_a_reply(headers):
    assert parse(mail("HELP\n", headers=headers)).no_reply_reason is None


def test_bounce_forbids_a_reply():
    bounce = raw(
        "Return-Path: <>\nFrom: Mail Delivery System <MAILER-DAEMON@mx.example.org>\n"
        "To: moderator@pbp.example\nSubject: Undelivered Mail Returned to Sender\n"
        "MIME-Version: 1.0\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"\n\n'
        "--b1\nContent-Type: text/plain\n\nYour message could not be delivered.\n\n"
        "--b1\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.org\n\n"
        "Final-Recipient: rfc822; bob@example.org\nAction: failed\nStatus: 5.1.1\n\n"
        "--b1\nContent-Type: message/rfc822\n\nFrom: moderator@pbp.example\nSubject: report\n\n"
        + FORM
        + "MOVE 1A\nEND ORDERS\n--b1--\n"
    )
    parsed = parse(bounce)
    assert parsed.no_reply_reason is not None
    assert parsed.blocks == ()  # the returned message's block is not anybody's orders
    without_return_path = raw(bounce.data.replace(b"Return-Path: <>\r\n", b""))
    assert (
        parse(without_return_path).no_reply_reason
        == "sent by a mail system (MAILER-DAEMON or postmaster)"
    )
    report_only = raw(
        bounce.data.replace(b"Return-Path: <>\r\n", b"").replace(
            b"Mail Delivery System <MAILER-DAEMON@mx.example.org>", b"robot@mx.example.org"
        )
    )
    assert parse(report_only).no_reply_reason == "delivery status report (a bounce)"


def test_html_only_mail_is_rendered_to_text():
    html = (
        "<html><head><style>p {color: red}</style><script>var BEGIN = 1;</script></head><body>"
        "<div>Hi,</div><p>BEGIN ORDERS g1 T2-movement<br>TOKEN: tok-123<br>MOVE&nbsp;1A<br>"
        "END ORDERS</p><div>Bye</div></body></html>"
    )
    message = mail(html, headers="MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n")
    (block,) = parse(message).blocks
    assert block.lines == ("MOVE 1A",) and block.token == "tok-123"


def test_html_blockquote_is_a_quoted_form():
    html = (
        "<div>My orders are below</div><blockquote><div>BEGIN ORDERS g1 T2-movement</div>"
        "<div>TOKEN: tok-123</div><div>MOVE 2B</div><div>END ORDERS</div></blockquote>"
    )
    (block,) = parse(mail(html, headers="Content-Type: text/html\n")).blocks
    assert block.quoted and block.lines == ("MOVE 2B",)


def test_plain_part_is_preferred_to_html_in_alternative():
    body = (
        "--a\nContent-Type: text/plain; charset=utf-8\n\n" + FORM + "MOVE 1A\nEND ORDERS\n"
        "--a\nContent-Type: text/html; charset=utf-8\n\n<p>BEGIN ORDERS g1 T2-movement<br>TOKEN: tok-123<br>MOVE 1A<br>END ORDERS</p>\n--a--\n"
    )
    parsed = parse(
        mail(body, headers='MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary="a"\n')
    )
    assert len(parsed.blocks) == 1


def test_latin1_mail():
    text = ("Grüße\n" + FORM + "SAY Ça va très bien\nEND ORDERS\n").encode("latin-1")
    message = raw(
        b"From: alice@example.org\nSubject: ordres\nContent-Type: text/plain; charset=iso-8859-1\n"
        b"Content-Transfer-Encoding: 8bit\n\n" + text
    )
    (block,) = parse(message).blocks
    assert block.lines == ("SAY Ça va très bien",)


def test_windows_1252_quoted_printable_smart_quotes():
    body = FORM.replace("\n", "=0A") + "SAY =93hello=94 =96 it=92s me=0AEND ORDERS=0A"
    message = raw(
        "From: alice@example.org\nContent-Type: text/plain; charset=windows-1252\n"
        "Content-Transfer-Encoding: quoted-printable\n\n" + body + "\n"
    )
    (block,) = parse(message).blocks
    assert block.lines == ('SAY "hello" - it\'s me',)


def test_base64_utf8_and_undecodable_bytes_never_crash():
    encoded = base64.b64encode((FORM + "MOVE 1A\nEND ORDERS\n").encode() + b"\xff\xfe bad").decode()
    message = raw(
        "From: alice@example.org\nContent-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: base64\n\n" + encoded + "\n"
    )
    (block,) = parse(message).blocks
    assert block.lines == ("MOVE 1A",)
    unknown = raw(
        b"From: alice@example.org\nContent-Type: text/plain; charset=x-klingon\n\nHELP \xff\n"
    )
    assert parse(unknown).commands == ("HELP",)


def test_orders_in_a_text_attachment():
    body = (
        "--m\nContent-Type: text/plain\n\nMy orders are attached.\n"
        '--m\nContent-Type: text/plain; name="orders.txt"\nContent-Disposition: attachment; filename="orders.txt"\n'
        "Content-Transfer-Encoding: base64\n\n"
        + base64.b64encode((FORM + "MOVE 4D\nEND ORDERS\n").encode()).decode()
        + "\n--m\nContent-Type: application/pdf\nContent-Disposition: attachment; filename=x.pdf\n\nJVBERi0=\n--m--\n"
    )
    parsed = parse(
        mail(body, headers='MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="m"\n')
    )
    (block,) = parsed.blocks
    assert block.lines == ("MOVE 4D",)


def test_malformed_mime_never_raises():
    broken = [
        b'From: alice@example.org\nContent-Type: multipart/mixed; boundary="zz"\n\nno boundary ever\n',
        b"From: alice@example.org\nContent-Type: multipart/mixed\n\n--\n--\n",
        b"From: =?utf-8?b?!!!?= <alice@example.org>\nSubject: =?bogus?q?x?=\nContent-Transfer-Encoding: base64\n\n@@@not base64",
        b"\xff\xfe\x00garbage without headers",
        b"",
        b'From: alice@example.org\nContent-Type: text/plain; charset="utf-8\nContent-Transfer-Encoding: quoted-printable\n\nHELP=\n=ZZ',
    ]
    for data in broken:
        parsed = parse(raw(data))
        assert parsed.key == "1:1" and parsed.blocks == ()


def test_normalisation_before_parsing():
    body = (
        "\u200bBEGIN\u00a0ORDERS g1 T2\u2013movement   \r\n"
        "TOKEN:\u2002tok-123\u200d\r\n"
        "SAY \u201cfriends\u201d don\u2019t\u00a0panic   \r"
        "END ORDERS\r\n"
    )
    (block,) = parse(mail(body, headers="Content-Type: text/plain; charset=utf-8\n")).blocks
    assert (block.phase, block.token) == ("T2-movement", "tok-123")
    assert block.lines == ('SAY "friends" don\'t panic',)


def test_command_from_first_unquoted_line_or_subject():
    assert parse(mail("help\n\nthanks\n")).commands == ("HELP",)
    assert parse(mail("  Status please\n")).commands == ("STATUS",)
    assert parse(mail("Frobnicate\n")).commands == ("FROBNICATE",)
    assert parse(mail("APPROVE g1 T2-movement\n")).commands == ("APPROVE g1 T2-movement",)
    empty_body = raw("From: alice@example.org\nSubject: Re: FORM\n\n\n")
    assert parse(empty_body).commands == ("FORM",)


def test_oversized_mail_is_not_parsed():
    parsed = parse_inbound(mail("x" * 5000), OWN, max_bytes=1000)
    assert parsed.blocks == () and parsed.no_reply_reason and parsed.problems


def test_header_lookups_follow_changes_to_a_parsed_message():
    """The parsed message answers header look-ups from an index (pbp.mail.ingest.inbound
    IndexedMessage); changing the message must never leave a stale answer."""
    from pbp.mail.ingest.inbound import parse_message

    message = parse_message(mail("HELP\n", headers="Received: one\nReceived: two\n"))
    assert message["from"] == "Alice <alice@example.org>" and message.get_all("RECEIVED") == [
        "one",
        "two",
    ]
    assert message.get_content_type() == "text/plain" and "x-new" not in message
    message["X-New"] = "1"
    message.replace_header("From", "Bruno <bruno@example.org>")
    del message["Received"]
    assert message["From"] == "Bruno <bruno@example.org>" and message["x-new"] == "1"
    assert message.get_all("Received") is None
    message["Content-Type"] = "text/html"
    assert message.get_content_type() == "text/html"
    message.set_type("text/csv")
    assert message.get_content_type() == "text/csv"
    del message["Content-Type"]
    message.set_default_type("message/rfc822")
    assert message.get_content_type() == "message/rfc822"
