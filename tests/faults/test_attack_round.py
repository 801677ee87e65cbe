"""Fault cases f092–f109: the attack round on the newer surfaces (HTML and flowed
reading, forum posts, thread votes, first-block-wins), each kept fixed (docs/design.md:
Hostile input). The threat is in each docstring; each case calls the function under
attack, as a stranger reaches it before any identity check."""
from __future__ import annotations

from pbp.mail.html_text import html_to_text
from tests.faults.test_outsiders import cost_ratio


def html_mail(body: str) -> bytes:
    return ("From: stranger@attacker.example\r\nTo: pbp@games.example\r\nSubject: hello\r\n"
            "Message-ID: <first@attacker.example>\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/html; charset=utf-8\r\n\r\n{body}\r\n").encode()


NESTED_QUOTES = "<blockquote>x"
UNCLOSED_TAGS = "<a "


def test_f092_reading_an_html_only_mail_is_linear_and_bounded():
    """Threat: a stranger's 76 kB HTML-only mail of nested `<blockquote>`s cost 10 CPU
    seconds before any identity check (each line was prefixed with one `> ` per level);
    a mail of unclosed tags (`<a <a <a …`) cost 44 seconds for 72 kB in the standard
    library's parser, and so did unclosed comments. The quote depth shown and the rendered size are capped, and the work
    is linear in the mail's size: one mail of 8,000 pieces costs about as much as 32 mails
    of 250."""
    for piece in (NESTED_QUOTES, UNCLOSED_TAGS, "</", "<![", "<!--", "x<br>" * 3 + NESTED_QUOTES):
        html = piece * 80_000
        assert len(html_to_text(html)) < 2 * len(html) + 1_000
        assert cost_ratio(lambda count: html_mail(piece * count), small=250, large=8_000) < 4, piece


def test_f093_html_quotes_and_text_survive_the_caps():
    """The caps leave ordinary mail as it was: a quoted form keeps its `> ` marks, text
    beside a stray `<` is kept, and a tag split by `>` inside a quoted value is read."""
    assert html_to_text("<p>VOTE Bruno</p><blockquote><p>ORDERS g1</p></blockquote>") == "VOTE Bruno\n> ORDERS g1"
    assert html_to_text("<p>a < b and c<d</p>") == "a < b and c<d"
    assert html_to_text('<p title="x>y">kept</p>') == "kept"
    deep = html_to_text("<blockquote>" * 50 + "deep")
    assert deep.startswith("> ") and deep.endswith("deep") and len(deep) < 100
