"""Replies as real mail programs send them (docs/design.md: Order mail format — replies as
real clients send them): format=flowed (RFC 3676), a form filled in inside the quote,
Outlook's unquoted copy of the mail answered, the form only in the HTML part, and the
lines written outside every block."""

from __future__ import annotations

from pbp.mail.flowed import decode_flowed
from pbp.mail.quoting import quote_lines
from tests.mail.test_inbound import mail, parse

FORM = (
    "BEGIN ORDERS g1 D1-nominate",
    "TOKEN: tok-123",
    "# NOMINATE <player>",
    "#   choices: Alice, Bruno, Chloe",
    "END ORDERS",
)


def quoted(lines, prefix="> "):
    return "".join(f"{prefix}{line}\n" if line else f"{prefix.rstrip()}\n" for line in lines)


# ---------------------------------------------------------------- format=flowed
def test_flowed_soft_breaks_are_joined_and_hard_breaks_kept():
    """RFC 3676, 4.1: a line ending in a space continues on the next line."""
    assert decode_flowed("Hello \nworld\nNext line\n") == "Hello world\nNext line\n"


def test_flowed_space_stuffing_is_removed():
    """RFC 3676, 4.4: a space put in front of a line that starts with a space, `>` or `From`."""
    assert decode_flowed("  indented\n From me\n") == " indented\nFrom me\n"


def test_flowed_delsp_drops_the_space_before_a_soft_break():
    """RFC 3676, 4.2: with DelSp=yes the space before the break was added by the sender."""
    assert decode_flowed("NOMI \nNATE Bruno\n", delsp=True) == "NOMINATE Bruno\n"
    assert decode_flowed("NOMI \nNATE Bruno\n", delsp=False) == "NOMI NATE Bruno\n"


def test_flowed_quote_depth_is_kept_and_ends_a_paragraph():
    """RFC 3676, 4.5: quoted lines flow within their depth; a depth change ends the paragraph."""
    text = "> # NOMINATE \n> <player>\n>> old \n>> text\nmine\n"
    assert decode_flowed(text) == "> # NOMINATE <player>\n> > old text\nmine\n"


def test_flowed_signature_separator_is_no_soft_break():
    assert decode_flowed("-- \nAlice\n") == "-- \nAlice\n"


def test_a_flowed_mail_keeps_its_form_lines_whole():
    """Thunderbird and Apple Mail send the form's long line soft-broken; read whole, the
    choices line is one comment line again, not an unknown order."""
    body = (
        "BEGIN ORDERS g1 D1-nominate\nTOKEN: tok-123\n"
        "#   choices: Alice, Bruno, Chloe, Dmitri, Elena, Farid, Greta, Hiro, \nIngrid, José\n"
        "NOMINATE Bruno\nEND ORDERS\n"
    )
    for delsp in ("", "; delsp=yes"):
        headers = (
            f"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8; format=flowed{delsp}\n"
        )
        (block,) = parse(mail(body, headers=headers)).blocks
        assert block.lines[-1] == "NOMINATE Bruno"
        assert all(line.startswith("#") or line == "NOMINATE Bruno" for line in block.lines)


# ---------------------------------------------------------------- typed inside the quote
def test_a_form_filled_in_inside_the_quote_is_the_players_block():
    """The player typed the order between the quoted form's lines; the client left it
    unquoted. The BEGIN and END lines are quoted alike, so this is the player's block."""
    lines = list(FORM)
    body = (
        "On Monday pbp wrote:\n"
        + quoted(lines[:4])
        + "NOMINATE Bruno\n"
        + quoted(lines[4:])
        + quoted(["Bye"])
    )
    parsed = parse(mail(body))
    (block,) = parsed.blocks
    assert not block.quoted and block.token == "tok-123"
    assert [line for line in block.lines if not line.startswith("#")] == ["NOMINATE Bruno"]
    assert not parsed.problems


def test_typed_inside_a_doubly_quoted_form_too():
    body = quoted(FORM[:3], ">> ") + "\nNOMINATE Chloe\n\n" + quoted(FORM[3:], ">> ")
    (block,) = parse(mail(body)).blocks
    assert not block.quoted and "NOMINATE Chloe" in block.lines


def test_a_quoted_form_without_its_end_line_is_refused_with_the_true_reason():
    body = "> BEGIN ORDERS g1 D1-nominate\n> TOKEN: tok-123\nNOMINATE Bruno\n"
    parsed = parse(mail(body))
    assert parsed.blocks == () and "has no END ORDERS line" in str(parsed.problems[0])


def test_an_end_line_quoted_differently_is_named_as_the_reason():
    """The block has an END line, but not at the BEGIN line's depth: the reason says that,
    not that the END line is missing."""
    body = "BEGIN ORDERS g1 D1-nominate\nTOKEN: tok-123\nNOMINATE Bruno\n> END ORDERS\n"
    (problem,) = parse(mail(body)).problems
    problem = str(problem)  # a Wording, in English as str()
    assert "ends with an END ORDERS line quoted differently (line 4)" in problem


# ---------------------------------------------------------------- Outlook's copied mail
OUTLOOK_HEADERS = {
    "en": (
        "From: Alice <alice@example.org>",
        "Sent: Monday, January 5, 2026 1:00 PM",
        "To: pbp",
        "Subject: Re: [g1] orders",
    ),
    "de": (
        "Von: Alice <alice@example.org>",
        "Gesendet: Montag, 5. Januar 2026 13:00",
        "An: pbp",
        "Betreff: AW: [g1] orders",
    ),
    "fr": (
        "De : Alice <alice@example.org>",
        "Envoyé : lundi 5 janvier 2026 13:00",
        "À : pbp",
        "Objet : RE: [g1] orders",
    ),
    "ja": (
        "差出人: Alice <alice@example.org>",
        "送信日時: 2026年1月5日 13:00",
        "宛先: pbp",
        "件名: RE: [g1] orders",
    ),
}


def test_outlooks_unquoted_copy_of_an_earlier_mail_is_history():
    """Outlook copies the mail answered below a header block of its own, unquoted: its
    old block is read as quoted, so the new block above it is the only one of the player's."""
    new = "\n".join([*FORM[:2], "NOMINATE Alice", FORM[-1]])
    old = "\n".join([*FORM[:2], "NOMINATE Bruno", FORM[-1]])
    for language, header in OUTLOOK_HEADERS.items():
        for rule in ("", "________________________________\n"):
            body = f"{new}\n\n{rule}" + "\n".join(header) + f"\n\n{old}\n"
            (block,) = parse(mail(body)).blocks
            assert block.lines == ("NOMINATE Alice",), language
    lines = quote_lines("new\n-----Original Message-----\nFrom: x\nBEGIN ORDERS g1 D1")
    assert [line.depth for line in lines] == [0, 1, 1, 1]


def test_a_header_like_line_alone_is_not_a_copied_mail():
    lines = quote_lines("From: the heart\nNOMINATE Bruno\nthanks\n")
    assert all(line.depth == 0 for line in lines)


# ---------------------------------------------------------------- the HTML part
def test_the_html_part_is_read_when_the_plain_part_holds_only_the_quote():
    """Apple Mail: text/plain with the untouched form quoted, the filled-in form in text/html."""
    plain = "On 5 Jan, pbp wrote:\n" + quoted(FORM)
    html = (
        "<div>BEGIN ORDERS g1 D1-nominate<br>TOKEN: tok-123<br>NOMINATE Chloe<br>END ORDERS</div>"
        "<blockquote>" + "<br>".join(FORM) + "</blockquote>"
    )
    body = (
        f"--b\nContent-Type: text/plain; charset=utf-8\n\n{plain}\n"
        f"--b\nContent-Type: text/html; charset=utf-8\n\n{html}\n--b--\n"
    )
    parsed = parse(
        mail(body, headers="MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=b\n")
    )
    (block,) = parsed.blocks
    assert block.lines == ("NOMINATE Chloe",)


def test_the_plain_part_wins_when_it_has_a_filled_block():
    plain = "\n".join([*FORM[:2], "NOMINATE Alice", FORM[-1]])
    html = "<div>" + "<br>".join([*FORM[:2], "NOMINATE Chloe", FORM[-1]]) + "</div>"
    body = (
        f"--b\nContent-Type: text/plain; charset=utf-8\n\n{plain}\n"
        f"--b\nContent-Type: text/html; charset=utf-8\n\n{html}\n--b--\n"
    )
    (block,) = parse(
        mail(body, headers="MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=b\n")
    ).blocks
    assert block.lines == ("NOMINATE Alice",)


# ---------------------------------------------------------------- outside the block
def test_lines_outside_blocks_are_kept_for_the_receipt():
    parsed = parse(
        mail("Hi, my orders for this turn:\nMOVE G-4\nthanks\n\nOn Monday pbp wrote:\n> x\n")
    )
    assert parsed.blocks == () and parsed.free_text
    assert parsed.stray == ("Hi, my orders for this turn:", "MOVE G-4", "thanks")
