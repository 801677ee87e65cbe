"""Thread votes read the thread's language's vote words as well as the English ones, as
the English order the engine reads (docs/design.md: Languages — order keywords)."""

from __future__ import annotations

import engine
from pbp.forum.thread.thread_votes import order_words
from pbp.forum.thread.vote_lines import order_lines

WEREWOLF = engine.ruleset("werewolf").card


def test_a_german_thread_reads_german_and_english_vote_words():
    words = order_words(WEREWOLF, "de")
    post = "Hallo!\n**NOMINIEREN Bruno** weil er lügt\nentstimmen\nVOTE Chloe\n[b]abstimmen: dmitri[/b]"
    read = [(line.keyword, line.text) for line in order_lines(post, words)]
    assert read == [
        ("NOMINATE", "NOMINATE Bruno"),
        ("UNVOTE", "UNVOTE"),
        ("VOTE", "VOTE Chloe"),
        ("VOTE", "VOTE dmitri"),
    ]


def test_another_languages_words_are_talk_in_a_thread():
    assert order_lines("VOTAR Bruno\nABSTIMMEN Chloe", order_words(WEREWOLF, "en")) == []
    assert [
        line.text
        for line in order_lines("VOTAR Bruno\nABSTIMMEN Chloe", order_words(WEREWOLF, "es"))
    ] == ["VOTE Bruno"]


def test_an_english_thread_reads_as_before():
    assert sorted(order_words(WEREWOLF)) == sorted(
        {"NOMINATE", "VOTE", "UNNOMINATE", "UNVOTE", "LINK"}
    )
