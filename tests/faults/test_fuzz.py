"""Fault cases f070–f071, property-based (hypothesis): real order mails — a valid block, a
command, a reply quoting the form, an HTML alternative, base64 and quoted-printable bodies —
mutated in their header and body bytes, their MIME structure and their charsets, then fed
through the real ingest (`pbp poll`). Whatever the mail: the poller never dies, every mail
is filed once, and the shared oracle holds.

f070 runs over the embedded Maildir transport (fast: many examples); f071 over Dovecot
and aiosmtpd (fewer). `PBP_FUZZ_EXAMPLES` sets f070's count (CI: a few hundred;
`scripts/fuzz`: 10,000); f071 runs a tenth of it."""

from __future__ import annotations

import base64
import os
import quopri

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from tests.faults.oracle import run
from tests.faults.site import NAMES, MaildirSite, Site

pytestmark = pytest.mark.integration
EXAMPLES = int(os.environ.get("PBP_FUZZ_EXAMPLES", "200"))
# No shrinking: each example is a real poll, and a failure prints its mails as they are.
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
CHARSETS = [
    "utf-8",
    "us-ascii",
    "iso-8859-1",
    "windows-1252",
    "shift_jis",
    "utf-16",
    "utf-7",
    "koi8-r",
    "x-no-such-charset",
    "",
    'utf-8"; x="',
    "unicode-1-1-utf-7",
]
HOSTILE_TEXT = st.sampled_from(
    [
        "\r\n",
        "\n",
        "\x00",
        "\x0c",
        "\u2028",
        "\x85",
        "=?utf-8?q?a=0D=0Ab?=",
        "=?x-bad?b?////?=",
        "<>",
        '"',
        "\\",
        "\x1b[2J",
        "A\u0410",
        "\ufeff",
        ";",
        ":",
    ]
)
# The attack round's pieces (tests/faults/test_attack_round.py), put before the block of an
# HTML alternative: deep quotes, unclosed tags and comments, hidden blocks.
HOSTILE_HTML = st.sampled_from(
    [
        "",
        "<blockquote>" * 2_000,
        "<a " * 2_000,
        "<!--" * 500,
        "<![" * 500,
        "</" * 1_000,
        '<div style="display:none">',
        "<div hidden>",
        "<span>&#",
    ]
)


def base_mail(site: Site, name: str, kind: int) -> tuple[str, str, str]:
    """(content type, transfer encoding, body) of a real mail a player sends."""
    block = site.block(name)
    if kind == 0:
        return "text/plain; charset=utf-8", "7bit", block
    if kind == 1:
        return "text/plain; charset=utf-8", "7bit", "HELP"
    if kind == 2:
        quoted = "".join(f"> {line}\n" for line in site.welcome[name].splitlines())
        return (
            "text/plain; charset=utf-8",
            "7bit",
            f"Here you go.\n\n{block}\n\nOn Monday pbp wrote:\n{quoted}",
        )
    if kind == 3:
        html = "<p>" + block.replace("\n", "<br>") + "</p>"
        body = (
            f"--alt\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{block}\r\n"
            f"--alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}\r\n--alt--\r\n"
        )
        return 'multipart/alternative; boundary="alt"', "7bit", body
    if kind == 4:
        return "text/plain; charset=utf-8", "base64", base64.encodebytes(block.encode()).decode()
    return (
        "text/plain; charset=utf-8",
        "quoted-printable",
        quopri.encodestring(block.encode()).decode(),
    )


@st.composite
def mutated_mails(draw, site: Site) -> bytes:
    name = draw(st.sampled_from(NAMES))
    content_type, encoding, body = base_mail(site, name, draw(st.integers(0, 5)))
    if content_type.startswith("multipart/alternative"):
        body = body.replace("<p>", draw(HOSTILE_HTML) + "<p>", 1)
    charset = draw(st.sampled_from(CHARSETS))
    if charset and content_type.startswith("text/plain"):
        content_type = f"text/plain; charset={charset}"
        try:
            body_bytes = body.encode(charset) if encoding == "7bit" else body.encode()
        except (LookupError, UnicodeError):
            body_bytes = body.encode()
    else:
        body_bytes = body.encode()
    for _ in range(draw(st.integers(0, 3))):  # MIME structure: wrap, nest, break boundaries
        boundary = draw(st.sampled_from(["w", "alt", "", 'w"', "=?x?="]))
        body_bytes = (
            (
                f"--{boundary}\r\nContent-Type: {content_type}\r\n"
                f"Content-Transfer-Encoding: {encoding}\r\n\r\n"
            ).encode()
            + body_bytes
            + (f"\r\n--{boundary}--\r\n" if draw(st.booleans()) else "").encode()
        )
        content_type, encoding = (
            f'multipart/{draw(st.sampled_from(["mixed", "alternative", "related"]))}; boundary="{boundary}"',
            "7bit",
        )
    headers = {"Content-Transfer-Encoding": encoding}
    for _ in range(draw(st.integers(0, 3))):  # header values with separators, encoded words
        header = draw(
            st.sampled_from(
                [
                    "Subject",
                    "Reply-To",
                    "Message-ID",
                    "In-Reply-To",
                    "References",
                    "Auto-Submitted",
                    "Content-Type",
                    "From",
                    "X-Extra",
                    "Date",
                ]
            )
        )
        headers[header] = draw(st.text(max_size=6)) + draw(HOSTILE_TEXT) + draw(st.text(max_size=6))
    head = "".join(
        f"{key}: {value}\r\n"
        for key, value in headers.items()
        if key not in ("Content-Type", "From")
    )
    sender = headers.get("From", site.players[name])
    data = site.mail(
        sender if draw(st.integers(0, 9)) else None,
        body_bytes,
        content_type=headers.get("Content-Type", content_type),
        headers=head.replace("\r\n", "\n"),
    )
    for _ in range(draw(st.integers(0, 4))):  # raw byte edits anywhere, header or body
        # a position as a share of the length: the mail's length depends on the game's state
        position = draw(st.integers(0, 10_000)) * len(data) // 10_001
        action = draw(st.integers(0, 2))
        noise = draw(st.binary(min_size=1, max_size=8))
        if action == 0:
            data = data[:position] + noise + data[position:]
        elif action == 1:
            data = data[:position] + data[position + len(noise) :]
        else:
            data = data[:position] + noise + data[position + len(noise) :]
    return data


@pytest.fixture(scope="module")
def maildir_site(tmp_path_factory):
    return MaildirSite(
        tmp_path_factory.mktemp("fuzz-maildir"), wrong_tokens_per_day=1_000_000
    ).start()


@st.composite
def a_poll(draw, site: Site) -> list[bytes]:
    return draw(st.lists(mutated_mails(site), min_size=1, max_size=3))


def test_f070_mutated_order_mails_over_maildir(maildir_site):
    """Threat: any bytes at all in any part of a mail (headers, body, MIME, charsets)."""

    @FUZZ
    @given(st.data())
    def check(data):
        run(maildir_site, *data.draw(a_poll(maildir_site)), may_change=set(NAMES))

    check()


def test_f071_mutated_order_mails_over_imap(site):
    """Threat: the same over the real IMAP server (fetched, spooled, filed by Dovecot)."""

    @settings(FUZZ, max_examples=max(EXAMPLES // 10, 10))
    @given(st.data())
    def check(data):
        run(site, *data.draw(a_poll(site)), may_change=set(NAMES))

    check()
