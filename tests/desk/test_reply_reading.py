"""How the desk reads a reply's blocks as the player meant them (docs/design.md: Order mail
format — several blocks in one mail, wrapped lines, WITHDRAW, lines outside the block), on
the toy Ballot ruleset, fed real mail bytes."""

from __future__ import annotations

from tests.desk.test_desk import block, desk, game, mail, orders_of, receive, replies  # noqa: F401  (fixtures)


def reply_text(moderator, sender):
    (reply,) = replies(moderator, sender)
    return reply.get_content()


def test_the_first_block_counts_and_the_later_one_is_named(moderator, sender, desk, game):
    """Two different blocks for one phase: the first is the new text of a top-posted reply."""
    body = (
        block(game, orders=("VOTE Chloe",))
        + "\n\nI changed my mind from this:\n\n"
        + block(game, orders=("VOTE Bruno",))
    )
    assert receive(desk, mail(body)) == "processed"
    text = reply_text(moderator, sender)
    assert orders_of(moderator, game) == "VOTE Chloe"
    assert (
        "Your mail holds another block for bal1 D1-vote (line 8); only the first one"
        in " ".join(text.split())
    )


def test_a_copy_of_an_earlier_block_never_wins_even_below_the_new_one(
    moderator, sender, desk, game
):
    """The player answers their own earlier orders mail and writes the new block BELOW the
    copy of the old one (Outlook, bottom-posted): the old block, judged before, is skipped."""
    assert (
        receive(desk, mail(block(game, orders=("VOTE Bruno",)), message_id="<first@x>"))
        == "processed"
    )
    replies(moderator, sender)
    body = (
        "From: Alice\nSent: Monday\nTo: pbp\nSubject: orders\n\n"
        + block(game, orders=("VOTE Bruno",))
        + "\n\n"
        + block(game, orders=("VOTE Chloe",))
    )
    assert receive(desk, mail(body, message_id="<second@x>")) == "processed"
    text = " ".join(reply_text(moderator, sender).split())
    assert orders_of(moderator, game) == "VOTE Chloe"
    assert (
        "that pbp had already judged from you (your earlier mail, copied into this one); skipped"
        in text
    )


def test_withdraw_all_leaves_no_orders_and_says_what_was_taken_back(moderator, sender, desk, game):
    assert (
        receive(desk, mail(block(game, orders=("VOTE Bruno",)), message_id="<a@x>")) == "processed"
    )
    replies(moderator, sender)
    assert (
        receive(desk, mail(block(game, orders=("withdraw all",)), message_id="<b@x>"))
        == "processed"
    )
    text = reply_text(moderator, sender)
    assert "Taken back for D1-vote" in text and "  VOTE Bruno" in text
    assert "(no orders: the rules' default applies)" in text
    assert orders_of(moderator, game) == ""


def test_withdrawing_an_order_never_given_is_refused_and_changes_nothing(
    moderator, sender, desk, game
):
    assert receive(desk, mail(block(game, orders=("WITHDRAW VOTE",)))) == "rejected"
    text = " ".join(reply_text(moderator, sender).split())
    assert (
        'Line 3: "WITHDRAW VOTE" — you have no accepted VOTE order for D1-vote to take back.'
        in text
    )
    assert orders_of(moderator, game) is None


def test_withdraw_names_an_order_of_the_phase(moderator, sender, desk, game):
    assert receive(desk, mail(block(game, orders=("WITHDRAW VOTES",)))) == "rejected"
    text = " ".join(reply_text(moderator, sender).split())
    assert (
        '"VOTES" is not an order you can give in D1-vote; write WITHDRAW and one of VOTE, ALL. Did you mean VOTE?'
        in text
    )


def test_a_block_may_not_give_and_take_back_the_same_order(moderator, sender, desk, game):
    assert receive(desk, mail(block(game, orders=("VOTE Bruno", "WITHDRAW VOTE")))) == "rejected"
    assert "cannot also take it back" in " ".join(reply_text(moderator, sender).split())


def test_order_lines_outside_any_block_are_named_as_not_taken(moderator, sender, desk, game):
    """No block, an order in the text: the reply says no orders were accepted and which line
    was not read, with the form, instead of HELP."""
    assert receive(desk, mail("Hi,\nmy vote:\nVOTE Bruno\nthanks")) == "rejected"
    text = " ".join(reply_text(moderator, sender).split())
    assert "Your mail has no order block, so no orders were accepted for D1-vote." in text
    assert (
        'Outside the block, your mail has the line "VOTE Bruno": pbp reads orders only inside a block'
        in text
    )
    assert "BEGIN ORDERS bal1 D1-vote" in text and "How to send orders" not in text
    assert orders_of(moderator, game) is None


def test_order_lines_outside_a_returned_form_are_named_too(moderator, sender, desk, game):
    body = "VOTE Chloe\n\nOn Monday pbp wrote:\n> " + block(
        game, orders=("# VOTE <player>",)
    ).replace("\n", "\n> ")
    assert receive(desk, mail(body)) == "processed"
    text = " ".join(reply_text(moderator, sender).split())
    assert 'your mail has the line "VOTE Chloe"' in text and "with no order filled in" in text


def test_a_long_order_line_broken_by_the_mail_program_is_joined(moderator, sender, desk, game):
    """A line that is no order, after a line long enough to have been broken at 76
    columns, is that line's end; here the end of a comment is dropped with it."""
    comment = "# " + "a long remark about this vote that goes on and on past the edge of t"
    body = block(game, orders=(comment, "he screen", "VOTE Bruno"))
    assert receive(desk, mail(body)) == "processed"
    assert orders_of(moderator, game) == "VOTE Bruno"


def test_a_reply_quoting_only_an_older_block_brings_no_old_orders_back(
    moderator, sender, desk, game
):
    """Attack round: a reply that only quotes an older orders block (as the player's mail
    program copies it) brought the old orders back over newer ones. A block judged before
    for the phase that is not the latest judged is skipped even alone; the receipt says the
    newer orders stand. The latest block sent again is read as before."""
    assert (
        receive(desk, mail(block(game, orders=("VOTE Bruno",)), message_id="<first@x>"))
        == "processed"
    )
    assert (
        receive(desk, mail(block(game, orders=("VOTE Chloe",)), message_id="<second@x>"))
        == "processed"
    )
    replies(moderator, sender)
    old = "Thanks!\n\nFrom: Alice\nSent: Monday\n\n" + block(game, orders=("VOTE Bruno",))
    receive(desk, mail(old, message_id="<third@x>"))
    assert orders_of(moderator, game) == "VOTE Chloe"
    text = " ".join(reply_text(moderator, sender).split())
    assert "already judged from you" in text and "newer orders stand" in text, text
    assert (
        receive(desk, mail(block(game, orders=("VOTE Chloe",)), message_id="<fourth@x>"))
        == "processed"
    )
    assert orders_of(moderator, game) == "VOTE Chloe"
