"""Hostile mail through the real loop: real Dovecot (IMAP over TLS) and aiosmtpd, `pbp
new-game` and `pbp poll` (docs/design.md: Hostile input — replies and stored records
stay small, wrong tokens are counted per address and never refuse the right one; Order mail format — each reply
says exactly what happened). Each case reads the answer in the player's real mailbox."""

from __future__ import annotations

import pytest

from tests.fixtures.mailserver import Player
from pbp.mail.limits import MAX_BLOCKS_PER_MAIL

from tests.integration.test_mail_cases import NAMES, Table, only_reply, play, prose_of, text_of

pytestmark = pytest.mark.integration
SMALL = 20_000  # bytes: a reply, or the growth of the game file, stays under this


@pytest.fixture(scope="module")
def host(tmp_path_factory, dovecot, smtp_server):
    return Player(dovecot.add_user(dovecot.new_address("host")), dovecot, smtp_server)


@pytest.fixture(scope="module")
def table(tmp_path_factory, dovecot, smtp_server, host):
    return Table(
        tmp_path_factory.mktemp("hostile-mail"),
        dovecot,
        smtp_server,
        max_size=2_000_000,
        more={"forum": {"host_address": host.address}},
    )


def game_file_size(table: Table) -> int:
    games = table.settings.parent / "data" / "games"
    return sum(
        path.stat().st_size
        for path in (games / "mailcases.json", games / "mailcases.journal")
        if path.exists()
    )


def attack(table: Table, name: str, body: str):
    """Send `body` from `name`, poll; return (the only reply, its size, the game file's growth)."""
    before = game_file_size(table)
    orders, replies = play(
        table, lambda: table.players[name].send(table.moderator_address, "orders", body)
    )
    assert orders == []
    reply = only_reply(replies, name)
    return reply, len(reply.as_bytes()), game_file_size(table) - before


def green(table: Table) -> str:
    record, _phase, _orders, state = table.game()
    with table.moderator() as moderator:
        rules = moderator.rules("infiltration")
        return next(name for name in NAMES if rules.view(state, name)["me"]["team"] == "green")


def test_58000_begin_lines_in_986_kb_get_a_small_reply_and_a_small_record(table):
    body = "BEGIN ORDERS a b\n" * 58_000
    reply, size, growth = attack(table, "Alice", body)
    assert size < SMALL and growth < SMALL
    assert reply["Subject"] == "Re: [mailcases] Orders NOT accepted for Turn 0, class choice"
    assert (
        f"This mail holds 58,000 order blocks; one mail may carry at most {MAX_BLOCKS_PER_MAIL}, "
        f"so the other {58_000 - MAX_BLOCKS_PER_MAIL:,} were not read."
    ) in prose_of(reply)


def test_5000_class_lines_get_ten_problems_and_a_count(table):
    body = table.block("Alice", orders="CLASS HACKER\n" * 5000)
    reply, size, growth = attack(table, "Alice", body)
    assert size < SMALL and growth < SMALL
    assert "and 4,990 more problems" in text_of(reply)


def test_a_repeated_class_names_its_own_line_and_the_first_ones(table):
    name = green(table)
    reply, _size, _growth = attack(
        table, name, table.block(name, orders="CLASS HACKER\n\nCLASS SNEAKER")
    )
    assert 'Line 5: "CLASS SNEAKER" — line 3 already gave a class order' in text_of(reply)


def test_13001_guessed_tokens_in_one_mail_do_not_find_the_right_one(table):
    right = table.block("Chloe")
    token = table.token("Chloe")
    guesses = "".join(right.replace(token, f"guess{n:05d}") for n in range(13_000))
    reply, size, _growth = attack(table, "Chloe", guesses + right)
    text = text_of(reply)
    assert size < SMALL and "13,001 order blocks" in text and "Accepted" not in text
    assert reply["Subject"] == "Re: [mailcases] Orders NOT accepted for Turn 0, class choice"


def test_a_block_with_two_token_lines_is_refused(table):
    body = table.block("Dmitri").replace("TOKEN:", "TOKEN: guess12345\nTOKEN:")
    reply, _size, _growth = attack(table, "Dmitri", body)
    assert reply["Subject"] == "Re: [mailcases] Orders NOT accepted for Turn 0, class choice"
    assert "has 2 TOKEN lines; a block has exactly one" in prose_of(reply)


def test_past_ten_wrong_tokens_the_right_one_still_works_and_the_host_is_told_once(
    table, host, capsys
):
    host.read_new(at_least=0)
    for attempt in range(2):  # 2 mails of 5 wrong tokens: the daily limit of 10
        right = table.block("Elena")
        # Five blocks for five phases: one mail's blocks for one phase count only once.
        guesses = "".join(
            right.replace(table.token("Elena"), f"g{attempt}{n}xxxxxxx").replace(
                "T0-class", f"T{n}-x"
            )
            for n in range(5)
        )
        reply, _size, _growth = attack(table, "Elena", guesses)
    assert "further ones go unanswered until 00:00 UTC; your right token always works" in prose_of(
        reply
    )
    (alert,) = host.read_new(at_least=1)
    assert alert["Subject"] == f"[mailcases] Wrong tokens from {table.players['Elena'].address}"
    orders, replies = play(
        table,
        lambda: table.players["Elena"].send(
            table.moderator_address, "orders", table.block("Elena")
        ),
    )
    assert [row["player"] for row in orders] == ["Elena"] and "Accepted" in text_of(
        only_reply(replies, "Elena")
    )
    assert host.read_new(at_least=0) == []  # told once
    capsys.readouterr()
    assert table.cli("status", "mailcases") == 0
    (line,) = [line for line in capsys.readouterr().out.splitlines() if "wrong tokens:" in line]
    assert f"{table.players['Elena'].address} reached the daily limit on " in line


def test_a_receipt_for_one_accepted_and_one_refused_block_says_the_accepted_orders_count(table):
    body = table.block("Farid") + "\n" + table.block("Farid", phase="T1-movement")
    orders, replies = play(
        table, lambda: table.players["Farid"].send(table.moderator_address, "orders", body)
    )
    assert [row["player"] for row in orders] == ["Farid"]
    reply = only_reply(replies, "Farid")
    text = prose_of(reply)
    assert reply["Subject"] == "Re: [mailcases] Orders received for Turn 0, class choice"
    assert (
        "Accepted for Turn 0 — class choice" in text
        and "there is no open phase T1-movement" in text
    )
    assert "no accepted orders" not in text
    assert (
        "Nothing from the blocks that were not accepted was used; the orders accepted above are the ones "
        "that count."
    ) in text


def test_a_block_for_a_game_that_does_not_exist_is_refused_for_that_reason(table):
    body = table.block("Alice").replace("BEGIN ORDERS mailcases", "BEGIN ORDERS nosuchgame")
    reply, _size, _growth = attack(table, "Alice", body)
    text = prose_of(reply)
    assert reply["Subject"] == "Re: [mailcases] Orders NOT accepted for Turn 0, class choice"
    assert (
        "was not accepted: you play in no game called nosuchgame (your games: mailcases). Copy the BEGIN "
        "line from your latest order form."
    ) in text
    assert "one game only" not in text


def test_a_missing_end_orders_gets_orders_not_accepted_not_help(table):
    reply, _size, _growth = attack(table, "Alice", table.block("Alice").replace("END ORDERS", ""))
    text = prose_of(reply)
    assert reply["Subject"] == "Re: [mailcases] Orders NOT accepted for Turn 0, class choice"
    assert "has no END ORDERS line" in text
    assert (
        "Nothing from this mail was accepted; you have no accepted orders for Turn 0 — class choice yet."
        in text
    )
