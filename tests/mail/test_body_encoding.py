"""The transfer encoding of the mails pbp sends (pbp.mail.compose): a body is wrapped to
72 columns (pbp.mail.wrapping) and sent as it is (7bit, or 8bit when it is not ASCII);
only a web address too long to break and longer than MIME allows unencoded (998 bytes,
less one for the dot SMTP may add) makes it encoded. Whatever the encoding, the body a
mail reader decodes is the body pbp wrote, wrapped."""

from __future__ import annotations

import email
from email import policy

from hypothesis import given, settings
from hypothesis import strategies as st

from pbp.mail.compose import UNENCODED_LINE_LIMIT, compose
from pbp.mail.wrapping import wrap_body


def sent(body: str) -> email.message.EmailMessage:
    message = compose(
        "pbp@games.example", "alice@example.org", "Report", body, "<pbp.1@games.example>"
    )
    return email.message_from_bytes(message.as_bytes(), policy=policy.default)


def wire_lines(body: str) -> list[bytes]:
    message = compose(
        "pbp@games.example", "alice@example.org", "Report", body, "<pbp.1@games.example>"
    )
    return message.as_bytes().splitlines()


def test_short_ascii_lines_are_sent_as_7bit():
    assert sent("Hello Ann,\nyour orders are in.\n")["Content-Transfer-Encoding"] == "7bit"


def test_a_long_line_of_a_report_is_sent_unencoded():
    rooms = ", ".join(f"{floor}-{number}" for floor in "ABCDEFGH" for number in range(1, 9))
    assert sent(f"#     choices: {rooms}\n")["Content-Transfer-Encoding"] == "7bit"
    assert sent(f"Où: {rooms}\n")["Content-Transfer-Encoding"] == "8bit"


ADDRESS = "https://example.org/"  # a web address is never broken (pbp.mail.wrapping)


def test_a_line_longer_than_may_go_unencoded_is_encoded():
    line = ADDRESS + "x" * UNENCODED_LINE_LIMIT
    mail = sent(line + "\n")
    assert mail["Content-Transfer-Encoding"] in ("quoted-printable", "base64")
    assert mail.get_content() == line + "\n"
    assert max(len(line) for line in wire_lines(line)) <= 78


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.text(
            alphabet=st.characters(
                blacklist_categories=("Cs",),
                blacklist_characters="\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
            ),
            max_size=1200,
        ),
        min_size=1,
        max_size=5,
    )
)
def test_every_body_reads_back_as_written_and_no_wire_line_is_too_long(lines):
    body = "\n".join(lines) + "\n"
    assert sent(body).get_content() == wrap_body(body)
    assert max(len(line) for line in wire_lines(body)) <= UNENCODED_LINE_LIMIT


def test_the_longest_unencoded_line_leaves_room_for_smtps_dot():
    longest = "." + ADDRESS + "x" * (UNENCODED_LINE_LIMIT - 1 - len(ADDRESS))
    assert sent(longest + "\n")["Content-Transfer-Encoding"] == "7bit"
    assert sent(longest + "x\n")["Content-Transfer-Encoding"] != "7bit"
