"""Fault cases f020–f039: what a mail carries — charsets, MIME shapes, sizes, headers made
from input (design.md: Hostile input; Reliability rules — Bad input). Every case runs the
real `pbp poll` over Dovecot and aiosmtpd, then the shared oracle (tests/faults/oracle.py)."""

from __future__ import annotations

import base64

import pytest

from tests.faults.oracle import answered, run, subject_of, text_of

pytestmark = pytest.mark.integration


def accepted(outcome, name: str) -> bool:
    return [row["player"] for row in outcome.orders] == [name]


@pytest.mark.parametrize(
    "charset, extra",
    [
        ("iso-8859-1", "Salut, voilà mes ordres, à bientôt."),
        ("windows-1252", "Here are my \u201corders\u201d \u2013 cheers \u20ac."),
        ("shift_jis", "\u3088\u308d\u3057\u304f\u304a\u9858\u3044\u3057\u307e\u3059\u3002"),
    ],
)
def test_f020_eight_bit_charsets(site, charset, extra):
    """Threat: bodies in ISO-8859-1, windows-1252 and Shift_JIS; read in their own
    charset, the block is accepted and nothing is garbled into orders."""
    body = (f"{extra}\n\n{site.block('Alice')}\n{extra}\n").replace("\n", "\r\n").encode(charset)
    data = site.mail(
        site.players["Alice"],
        body,
        content_type=f"text/plain; charset={charset}",
        headers="Content-Transfer-Encoding: 8bit",
    )
    outcome = run(site, data, may_change={"Alice"})
    assert accepted(outcome, "Alice")


def test_f021_utf16_body(site):
    """Threat: a UTF-16 body (with its byte-order mark, base64-encoded) is read or refused
    with a reason; it never stops the poller."""
    body = base64.encodebytes(site.block("Bruno").replace("\n", "\r\n").encode("utf-16")).replace(
        b"\n", b"\r\n"
    )
    data = site.mail(
        site.players["Bruno"],
        body,
        content_type="text/plain; charset=utf-16",
        headers="Content-Transfer-Encoding: base64",
    )
    outcome = run(site, data, may_change={"Bruno"})
    assert accepted(outcome, "Bruno") or answered(outcome) == ["Bruno"]


def test_f022_invalid_charset_and_undecodable_bytes(site):
    """Threat: a charset no codec knows, and bytes that are not UTF-8 in a UTF-8 body."""
    unknown = site.mail(
        site.players["Chloe"], site.block("Chloe"), content_type="text/plain; charset=x-no-such-42"
    )
    broken = site.mail(
        site.players["Dmitri"],
        b"\xff\xfe\xc3(\xa0\xa1 hello\r\n"
        + site.block("Dmitri").encode()
        + b"\xed\xa0\x80\xf8\x88\x80\x80\x80\r\n",
        headers="Content-Transfer-Encoding: 8bit",
    )
    outcome = run(site, unknown, broken, may_change={"Chloe", "Dmitri"})
    assert {row["player"] for row in outcome.orders} <= {"Chloe", "Dmitri"}


def test_f023_html_only_mail(site):
    """Threat: an HTML-only mail (no text part) with markup around and inside the block."""
    block = site.block("Elena").replace("\n", "<br>\n")
    html = f"<html><body><p>Hi!</p><div style='color:red'>{block}</div><script>alert(1)</script></body></html>"
    data = site.mail(site.players["Elena"], html, content_type="text/html; charset=utf-8")
    outcome = run(site, data, may_change={"Elena"})
    assert accepted(outcome, "Elena") or answered(outcome) == ["Elena"]


def _nested(depth: int, inner: str) -> str:
    text = f"Content-Type: text/plain; charset=utf-8\r\n\r\n{inner}"
    for level in range(depth):
        boundary = f"b{level}"
        text = (
            f'Content-Type: multipart/mixed; boundary="{boundary}"\r\n\r\n--{boundary}\r\n{text}\r\n'
            f"--{boundary}--\r\n"
        )
    return text


def test_f024_mime_nested_a_thousand_levels(site):
    """Threat: 1,000 nested multiparts (recursion depth, parse time)."""
    nested = _nested(1000, site.block("Farid"))
    head, _, body = nested.partition("\r\n\r\n")
    data = site.mail(site.players["Farid"], body, content_type=head.split(": ", 1)[1])
    run(site, data, may_change={"Farid"})


def test_f025_ten_thousand_parts(site):
    """Threat: 10,000 MIME parts in one mail (parse time, memory, one reply per part)."""
    parts = "".join(f"--p\r\nContent-Type: text/plain\r\n\r\n{n}\r\n" for n in range(10_000))
    body = f"--p\r\nContent-Type: text/plain\r\n\r\n{site.block('Alice')}\r\n{parts}--p--\r\n"
    data = site.mail(site.players["Alice"], body, content_type='multipart/mixed; boundary="p"')
    outcome = run(site, data, may_change={"Alice"})
    assert sum(len(mails) for mails in outcome.mail.values()) <= 1


def test_f026_a_20_mb_attachment_is_refused_before_download(site):
    """Threat: a 20 MB mail fills memory and disk. It is filed as rejected from its size
    alone: pbp's record of it has no SHA-256 (the body was never fetched) and says so."""
    attachment = base64.encodebytes(b"\0" * 15_000_000).replace(b"\n", b"\r\n")
    body = (
        b"--z\r\nContent-Type: text/plain\r\n\r\n"
        + site.block("Bruno").encode()
        + b"\r\n--z\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        + attachment
        + b"\r\n--z--\r\n"
    )
    data = site.mail(site.players["Bruno"], body, content_type='multipart/mixed; boundary="z"')
    assert len(data) > 20_000_000
    outcome = run(site, data)
    assert outcome.filed[data] == "rejected"
    rows = [row for row in site.registry_mails() if "not downloaded" in row.get("reason", "")]
    assert rows and all(row["sha256"] == "" for row in rows)


@pytest.mark.parametrize(
    "date",
    [
        None,
        "Fri, 31 Dec 9999 23:59:59 +0000",
        "yesterday at noon",
        "Mon, 30 Nov 2026 25:61:61 +9999",
    ],
)
def test_f027_missing_far_future_and_broken_dates(site, date):
    """Threat: no `Date`, a Date in the year 9999, and Dates that do not parse: the mail's
    time is when pbp read it, never what it claims."""
    data = site.mail(site.players["Chloe"], site.block("Chloe"))
    data = data.replace(
        b"Date: Mon, 30 Nov 2026 12:00:00 +0000\r\n",
        b"" if date is None else f"Date: {date}\r\n".encode(),
    )
    record = site.record()
    outcome = run(site, data, may_change={"Chloe"})
    assert accepted(outcome, "Chloe")
    assert site.record()["deadline"] == record["deadline"]


def test_f028_an_empty_mail(site):
    """Threat: zero bytes: no headers, no body."""
    outcome = run(site, b"")
    assert answered(outcome) == []


def test_f029_headers_only_and_garbage(site):
    """Threat: a mail that is only a header line without a colon, then binary noise."""
    outcome = run(
        site, b"this is not a header\r\n\x00\x01\x02\xff" * 50, b"From:\r\n\r\n", b"\r\n\r\n\r\n"
    )
    assert answered(outcome) == []


def test_f030_cyrillic_look_alikes_in_orders(site):
    """Threat: orders written with Cyrillic letters that look like Latin ones (`WАRRIOR`
    with a Cyrillic А) must not be taken for the real order, nor crash the reply."""
    data = site.mail(site.players["Dmitri"], site.block("Dmitri", orders="CLASS W\u0410RRIOR"))
    outcome = run(site, data)
    assert outcome.orders == []
    assert answered(outcome) == ["Dmitri"] and "not accepted" in text_of(outcome.mail["Dmitri"][0])


def test_f031_cyrillic_look_alike_game_and_token(site):
    """Threat: a look-alike game id and token (`g1` with a Cyrillic letter elsewhere)."""
    token = site.token("Elena")
    look_alike = token.replace("a", "\u0430").replace("o", "\u043e").replace("e", "\u0435")
    if look_alike == token:
        look_alike = "\u0430" + token[1:]
    data = site.mail(site.players["Elena"], site.block("Elena", token=look_alike))
    outcome = run(site, data)
    assert outcome.orders == []


def test_f032_a_valid_mail_and_hostile_ones_in_one_poll(site):
    """Threat: hostile mails next to a genuine one: the genuine one is still handled."""
    hostile = [
        site.mail(site.players["Farid"], "\x00" * 100),
        b"",
        site.mail(None, "x"),
        site.mail(
            site.players["Farid"],
            _nested(200, "x").partition("\r\n\r\n")[2],
            content_type='multipart/mixed; boundary="b199"',
        ),
    ]
    good = site.mail(site.players["Farid"], site.block("Farid", orders="CLASS WARRIOR"))
    outcome = run(site, *hostile, good, may_change={"Farid"})
    assert accepted(outcome, "Farid")
    assert any("Accepted" in text_of(m) for m in outcome.mail["Farid"])


def test_f033_replayed_message_id(site):
    """Threat: the same Message-ID again (a replay of a genuine mail with other orders)
    must not place the replayed orders twice nor answer twice."""
    message_id = f"<replay-{site.serial()}@example.org>"
    first = site.mail(site.players["Alice"], site.block("Alice"), message_id=message_id)
    second = site.mail(
        site.players["Alice"], site.block("Alice"), message_id=message_id, subject="orders again"
    )
    run(site, first, may_change={"Alice"})
    outcome = run(site, second, may_change={"Alice"})
    assert outcome.orders == [] and answered(outcome) == []


def test_f034_subject_and_names_only_in_printable_form(site):
    """Threat: every `str.splitlines()` separator and control character in the Subject
    of a genuine mail; the receipt's Subject stays one printable line."""
    separators = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\x1b[31m\x07\x00"
    encoded = "=?utf-8?b?" + base64.b64encode(f"orders{separators}end".encode()).decode() + "?="
    data = site.mail(site.players["Bruno"], site.block("Bruno"), subject=encoded)
    outcome = run(site, data, may_change={"Bruno"})
    (reply,) = outcome.mail["Bruno"]
    assert subject_of(reply).isprintable()
    assert accepted(outcome, "Bruno")
