"""The order lines of a forum post (pbp.forum.thread.vote_lines): what counts as the author's own
order, in each markup players use (docs/design.md: Public posts — votes in the thread)."""

from __future__ import annotations

import pytest

from pbp.forum.thread.vote_lines import MAX_LINES, order_lines, read_post

WORDS = frozenset({"VOTE", "UNVOTE", "NOMINATE", "LINK"})


@pytest.mark.parametrize(
    "post, expected",
    [
        ("**VOTE Bruno**", ["VOTE Bruno"]),
        ("[b]vote: bruno[/b]", ["VOTE bruno"]),
        ("Vote: Bruno.", ["VOTE Bruno"]),
        ("__Vote Bruno__ — he lied twice", ["VOTE Bruno"]),
        ("<strong>VOTE Bruno</strong>", ["VOTE Bruno"]),
        ("**VOTE:** Bruno", ["VOTE Bruno"]),
        ("__VOTE__ farid", ["VOTE farid"]),  # `__` is Markdown bold like `**`
        ("__vote__: farid", ["VOTE farid"]),
        ("1. vote no lynch", ["VOTE no lynch"]),
        ("UNVOTE", ["UNVOTE"]),
        ("I will vote Bruno tomorrow", []),  # the order word must start the line
        ("votes are due soon", []),
    ],
)
def test_an_order_line_in_any_markup(post, expected):
    assert [line.text for line in order_lines(post, WORDS)] == expected


@pytest.mark.parametrize(
    "post",
    [
        "> VOTE Bruno",
        "[quote=alice]VOTE Bruno[/quote]",
        "[quote]\n[quote]VOTE Bruno[/quote]\nVOTE Bruno\n[/quote]",
        "<blockquote>VOTE Bruno</blockquote>",
        ">!VOTE Bruno!<",
        "[spoiler]VOTE Bruno[/spoiler]",
        "[details=Summary]\nVOTE Bruno\n[/details]",
        "`VOTE Bruno`",
        "```\nVOTE Bruno\n```",
        "    VOTE Bruno",
    ],
)
def test_quotes_spoilers_and_code_are_never_orders(post):
    assert order_lines(post, WORDS) == []


def test_the_post_s_own_line_after_a_closed_quote_counts():
    post = "[quote=alice]VOTE Chloe[/quote]\nVOTE Bruno"
    assert [line.text for line in order_lines(post, WORDS)] == ["VOTE Bruno"]


def test_a_hostile_post_is_read_only_so_far():
    post = "VOTE Bruno\n" * (MAX_LINES + 500) + "VOTE Chloe\n"
    lines = order_lines(post, WORDS)
    assert lines and all(
        line.text == "VOTE Bruno" for line in lines
    )  # lines past the cap are unread
    assert order_lines("[quote]" * 10_000 + "VOTE Bruno", WORDS) == []


def test_words_count_only_the_author_s_own():
    assert (
        read_post("> quoted words here\nmy own three\n`code span` two", ())[1] == 4
    )  # only the author's words
