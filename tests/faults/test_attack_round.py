"""Fault cases f092–f109: the attack round on the newer surfaces (HTML and flowed
reading, forum posts, thread votes, first-block-wins), each kept fixed (docs/design.md:
Hostile input). The threat is in each docstring; each case calls the function under
attack, as a stranger reaches it before any identity check."""

from __future__ import annotations

from pbp.mail.html_text import html_to_text
from tests.faults.growth import work_ratio
from tests.faults.test_outsiders import cost_ratio


def html_mail(body: str) -> bytes:
    return (
        "From: stranger@attacker.example\r\nTo: pbp@games.example\r\nSubject: hello\r\n"
        "Message-ID: <first@attacker.example>\r\nMIME-Version: 1.0\r\n"
        f"Content-Type: text/html; charset=utf-8\r\n\r\n{body}\r\n"
    ).encode()


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
    assert (
        html_to_text("<p>VOTE Bruno</p><blockquote><p>ORDERS g1</p></blockquote>")
        == "VOTE Bruno\n> ORDERS g1"
    )
    assert html_to_text("<p>a < b and c<d</p>") == "a < b and c<d"
    assert html_to_text('<p title="x>y">kept</p>') == "kept"
    deep = html_to_text("<blockquote>" * 50 + "deep")
    assert deep.startswith("> ") and deep.endswith("deep") and len(deep) < 100


def test_f094_reading_a_forum_post_is_linear():
    """Threat: posts made of `>!` runs (Reddit's spoiler marks, never closed) were read in
    quadratic time: eight 30 kB posts by a stranger cost 28 CPU seconds, again at every
    final read. Quotes, spoilers and code are found by one linear scan: a post of 10,000
    runs costs about as much as 40 posts of 250, and what is hidden stays hidden."""
    from pbp.forum.thread.vote_lines import order_lines, read_post

    words = {"VOTE", "NOMINATE", "LINK"}
    for piece in ("x>!", "VOTE >!", "`>!", ">!`", "x`"):
        assert (
            work_ratio(
                lambda text: read_post(text, words), lambda count: piece * count, 250, 10_000
            )
            < 4
        ), piece
    assert [line.text for line in order_lines("VOTE Bruno >!VOTE Chloe!<", words)] == ["VOTE Bruno"]
    assert [line.text for line in order_lines("VOTE >!Bruno", words)] == ["VOTE >!Bruno"]
    assert order_lines(">!VOTE Chloe!<", words) == []
    assert order_lines("`VOTE Chloe`", words) == []
    assert [line.text for line in order_lines("VOTE `>!` Bruno", words)] == ["VOTE Bruno"]


def test_f095_forum_accounts_compare_as_the_forum_does():
    """Threat: accounts were compared with `casefold()`, so `hugo_ſK` (a long s, a Kelvin
    sign) voted as `hugo_sk`, an account the forum holds apart. Names are compared as the
    forum does: NFC, then lower case."""
    from pbp.forum.thread.forum_names import Identities

    known = Identities()
    known.add("hugo_sk", 0.0, "Hugo")
    assert known.player_at("HUGO_SK", 1.0) == "Hugo"
    assert known.player_at("hugo_\u017f\u212a", 1.0) is None
    from pbp.forum.thread.posts import same_account

    assert known.player_at("strasse", 1.0) is None and not same_account("stra\u00dfe", "strasse")
    assert same_account("Cafe\u0301", "caf\u00e9") and not same_account("pbp_bo\u017ft", "pbp_bost")


def test_f096_a_vote_inside_an_html_comment_is_not_counted():
    """Threat: a vote inside an HTML comment counted, though the forum shows nothing of
    it (Discourse renders Markdown with HTML, and drops comments). Comments are dropped
    before a post is read, an unclosed one hiding the rest, as the forum renders it."""
    from pbp.forum.thread.vote_lines import order_lines

    words = {"VOTE", "NOMINATE", "LINK"}
    assert order_lines("Hi all.\n<!--\nVOTE Bruno\n-->\nSee you.", words) == []
    assert [line.text for line in order_lines("VOTE Chloe <!-- VOTE Bruno -->", words)] == [
        "VOTE Chloe"
    ]
    assert [line.text for line in order_lines("VOTE Chloe\n<!-- hidden\nVOTE Bruno", words)] == [
        "VOTE Chloe"
    ]
    assert [line.text for line in order_lines("<!-- x -->\nVOTE Dmitri", words)] == ["VOTE Dmitri"]


def test_f097_what_a_mail_client_would_not_show_is_not_read():
    """Threat: in an HTML-only mail a block hidden with `display:none` came first and won
    over the visible one the player saw. What a mail client would not show (`hidden`,
    `display:none`, `visibility:hidden`) is left out of the rendering."""
    hidden = [
        '<div style="display:none">',
        '<div style="color:red; DISPLAY : none !important">',
        "<div hidden>",
        "<div style='visibility: hidden'>",
        '<span style="display:none"><div>',
    ]
    for opening in hidden:
        tag = opening.split()[0][1:].rstrip(">")
        html = (
            f"{opening}<p>BEGIN ORDERS g1 D1</p><p>VOTE Bruno</p><div>END ORDERS</div></{tag}>"
            "<p>BEGIN ORDERS g1 D1</p><p>VOTE Chloe</p><p>END ORDERS</p>"
        )
        assert html_to_text(html) == "BEGIN ORDERS g1 D1\nVOTE Chloe\nEND ORDERS", opening
    assert (
        html_to_text('<div style="display:block">shown</div><img hidden src="x">after')
        == "shown\nafter"
    )


def test_f098_look_alike_names_in_capitals_are_refused():
    """Threat: `ΑΚΙ` in Greek capitals was accepted beside `Aki` (its skeleton, `AKl`, is
    not `Aki`'s), though a post in capitals shows both alike. The skeletons of the
    upper-case forms are compared too; names that only share letters stay apart."""
    from engine.names import look_alike, name_clashes

    assert look_alike("Aki", "\u0391\u039a\u0399")
    assert name_clashes(["Aki", "Bruno", "\u0391\u039a\u0399"]) != []
    assert not any(
        look_alike(one, other)
        for one, other in [
            ("Ian", "Lan"),
            ("Mia", "Nia"),
            ("Ines", "Ivan"),
            ("Olga", "Olaf"),
            ("Eli", "Ela"),
        ]
    )
