"""How much of one mail the block parser reads (docs/design.md: Hostile input — blocks
per mail are capped; Order mail format — one TOKEN line per block)."""

from __future__ import annotations

from pbp.mail.limits import MAX_BLOCKS_PER_MAIL, listed, quoted
from tests.mail.test_inbound import FORM, mail, parse


def test_blocks_beyond_the_cap_are_counted_not_read():
    body = "".join(
        f"BEGIN ORDERS g1 T2-movement\nTOKEN: tok-{n}\nMOVE 1A\nEND ORDERS\n" for n in range(13_001)
    )
    parsed = parse(mail(body))
    assert [block.token for block in parsed.blocks] == [
        f"tok-{n}" for n in range(MAX_BLOCKS_PER_MAIL)
    ]
    assert tuple(map(str, parsed.problems)) == (
        f"This mail holds 13,001 order blocks; one mail may carry at most "
        f"{MAX_BLOCKS_PER_MAIL}, so the other {13_001 - MAX_BLOCKS_PER_MAIL:,} were not read.",
    )


def test_the_cap_counts_unreadable_blocks_too():
    parsed = parse(mail("BEGIN ORDERS a b\n" * 1000))
    assert parsed.blocks == () and len(parsed.problems) == MAX_BLOCKS_PER_MAIL + 1
    assert str(parsed.problems[-1]).startswith("This mail holds 1,000 order blocks;")


def test_a_block_with_two_token_lines_is_refused_whole():
    parsed = parse(mail(FORM + "TOKEN: guess-2\nMOVE 1A\nEND ORDERS\n"))
    assert parsed.blocks == ()
    assert tuple(map(str, parsed.problems)) == (
        'The block starting "BEGIN ORDERS g1 T2-movement" has 2 TOKEN lines; a block has '
        "exactly one, the one from your order form, so nothing in it was read. Send it again "
        "with one TOKEN line.",
    )


def test_13001_token_lines_in_one_block_are_refused_whole():
    parsed = parse(
        mail(
            "BEGIN ORDERS g1 T2-movement\n"
            + "".join(f"TOKEN: t{n}\n" for n in range(13_001))
            + "MOVE 1A\nEND ORDERS\n"
        )
    )
    assert parsed.blocks == () and "has 13,001 TOKEN lines" in str(parsed.problems[0])


def test_quoting_cuts_long_text_with_an_ellipsis():
    assert quoted("short") == "short"
    cut = quoted("x" * 1000)
    assert len(cut) == 60 and cut.endswith("…")


def test_a_listing_shows_the_first_problems_and_counts_the_rest():
    assert listed(["a", "b"], limit=10) == ["a", "b"]
    assert listed([f"p{n}" for n in range(5000)], limit=2) == [
        "p0",
        "p1",
        "and 4,998 more problems",
    ]
    assert listed(["a", "b", "c"], limit=2) == ["a", "b", "and 1 more problem"]
