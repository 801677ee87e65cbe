"""Outgoing headers made from hostile text (docs/design.md: Hostile input — "subjects, names
and Message-IDs copied into replies are reduced to printable text on one line … and
threading headers only carry Message-IDs of a strict shape")."""

from __future__ import annotations

import email
from email import policy

from hypothesis import given, settings
from hypothesis import strategies as st

from pbp.mail.compose import compose
from pbp.mail.header_values import header_line, strict_message_id
from pbp.mail.headers import message_ids
from pbp.mail.ingest.inbound import parse_inbound
from pbp.ports import RawMail

SEPARATORS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
# The attack: an encoded word that decodes to CR LF, then a header, then a body line.
INJECTING_ID = (
    "<=?utf-8?q?x=0D=0AReply-To:_moderator=40evil.example=0D=0A=0D=0Aevil?=@evil.example>"
)
HEADERS = [
    "From",
    "To",
    "Subject",
    "Message-ID",
    "In-Reply-To",
    "References",
    "Auto-Submitted",
    "X-Auto-Response-Suppress",
    "Content-Type",
    "Content-Transfer-Encoding",
    "MIME-Version",
]


def built(text: str, in_reply_to: str | None = None, references=()) -> email.message.EmailMessage:
    message = compose(
        (f"pbp {text}", "pbp@games.example"),
        (text, "alice@example.org"),
        f"Re: {text}",
        "BEGIN ORDERS g1 N1\nTOKEN: secret\nEND ORDERS\n",
        "<pbp.1@games.example>",
        in_reply_to=in_reply_to,
        references=references,
    )
    return email.message_from_bytes(message.as_bytes(), policy=policy.default)


def test_every_splitlines_separator_and_control_character_is_removed():
    for separator in SEPARATORS + "\x00\x07\x1b\t\u200b\u202e":
        line = header_line(f"a{separator}b")
        assert line in ("a b", "ab") and line.splitlines() == [line] and line.isprintable()


def test_an_encoded_word_left_in_decoded_text_cannot_be_decoded_again():
    assert "=?" not in header_line("Re: =?utf-8?q?x=0D=0AReply-To:_evil=40x?=")


def test_only_strictly_shaped_message_ids_pass():
    assert strict_message_id("<a.b-c_1@example.org>") == "<a.b-c_1@example.org>"
    for bad in (
        INJECTING_ID,
        "<a b@x>",
        "<a<b@x>",
        "<a\r\n@x>",
        "a@x",
        "<>",
        "<é@x>",
        "<" + "a" * 300 + ">",
    ):
        assert strict_message_id(bad) is None


def test_the_injecting_message_id_is_not_read_from_a_mail():
    data = (
        f"From: alice@example.org\r\nSubject: =?utf-8?q?orders=0C=0D=0AX-Evil:_1?=\r\n"
        f"Message-ID: {INJECTING_ID}\r\nReferences: <ok@x> {INJECTING_ID}\r\n\r\nhello\r\n"
    ).encode()
    mail = parse_inbound(RawMail("1:1", data, "sha"), (), 100_000)
    assert mail.message_id == "" and mail.references == ("<ok@x>",)
    assert mail.subject == "orders X-Evil: 1"
    assert message_ids(email.message_from_bytes(data), "Message-ID") == ()


def test_a_reply_to_the_injecting_message_id_has_no_injected_header_and_an_intact_body():
    reply = built("Alice", in_reply_to=INJECTING_ID, references=[INJECTING_ID, "<ok@x>"])
    assert reply["Reply-To"] is None and reply["In-Reply-To"] is None
    assert reply["References"] == "<ok@x>"
    assert reply.get_content().startswith("BEGIN ORDERS g1 N1\n")


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_no_text_can_add_a_header_or_break_the_mail(text):
    """Whatever the subject or name holds, the mail is built, holds exactly the headers pbp
    writes, each on one logical line, and its body is the body pbp wrote."""
    reply = built(text, in_reply_to=f"<{text}@x>", references=[text])
    threading = [name for name in ("In-Reply-To", "References") if name in reply]
    assert sorted(reply.keys()) == sorted([*HEADERS[:4], *threading, *HEADERS[6:]])
    assert reply["To"].addresses[0].addr_spec == "alice@example.org"
    for name in ("Subject", "To", "From"):
        assert len(str(reply[name]).splitlines()) <= 1
    assert reply.get_content() == "BEGIN ORDERS g1 N1\nTOKEN: secret\nEND ORDERS\n"


def _header_line_by_character(text: str) -> str:
    """header_line without its printable-ASCII shortcut: every character looked up."""
    import re
    import unicodedata

    kept = "".join(
        " " if unicodedata.category(char) in {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"} else char
        for char in text
    )
    return re.sub(r"\s+", " ", kept).strip().replace("=?", "= ?")[:300].rstrip()


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(), st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x7F))))
def test_the_printable_ascii_shortcut_keeps_what_the_character_check_keeps(text):
    """Most header values are printable ASCII and skip the look-up of each character's
    category; for any text the result is the same as looking every character up."""
    assert header_line(text) == _header_line_by_character(text)
