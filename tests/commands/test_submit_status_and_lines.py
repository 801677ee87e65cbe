"""`pbp submit <game> <character> <orders…>` (docs/design.md: Command line): the orders may
be the order lines themselves, and `STATUS` is no order but the character's status, as a
STATUS mail would give it; nothing changes. A path that cannot be read is one line."""

from __future__ import annotations

import engine

from tests.commands.test_cli_commands import PLAYERS, Site


def green(site: Site) -> str:
    rules = engine.ruleset("infiltration")
    state = rules.from_json(site.record()["state"])
    return next(n for n in PLAYERS if rules.view(state, n)["me"]["team"] == "green")


def test_submit_takes_the_order_lines_themselves(tmp_path, capsys):
    site = Site(tmp_path, capsys)
    name = green(site)
    assert site.pbp("submit", "g1", name, "class sneaker", "--no-send") == 0
    assert site.output()[0].startswith(f"Accepted for {name}:\n  CLASS SNEAKER\n")
    assert [(row["player"], row["text"]) for row in site.orders()] == [(name, "CLASS SNEAKER")]


def test_submit_status_prints_the_characters_status_and_changes_nothing(tmp_path, capsys):
    site = Site(tmp_path, capsys)
    name = green(site)
    before = site.game_file.read_bytes()
    assert site.pbp("submit", "g1", name, "STATUS") == 0
    out, err = site.output()
    assert not err and site.game_file.read_bytes() == before
    assert out.startswith(
        f"Hello {name},\n\nThe current phase is Turn 0 — class choice; its deadline is "
    )
    assert (
        "You have no accepted orders for Turn 0 — class choice yet." in out
        and "Where you stand:" in out
    )
    assert site.record()["tokens"][name] not in out
    assert site.pbp("submit", "g1", name, "CLASS HACKER", "--no-send") == 0
    assert site.pbp("submit", "g1", name.lower(), "status") == 0
    assert "Your accepted orders (received " in site.output()[0]


def test_submit_refuses_an_unreadable_orders_path_and_a_bad_line(tmp_path, capsys):
    site = Site(tmp_path, capsys)
    name = green(site)
    site.refused(
        "submit", "g1", name, str(tmp_path / "missing.txt"), says="Cannot read the orders file"
    )
    site.refused(
        "submit", "g1", name, "CLASS PILOT", says=f"The orders for {name} were not accepted"
    )


def test_submit_reads_an_orders_file_as_bare_lines_or_one_whole_block(tmp_path, capsys):
    """A host's orders file holds the order lines, or one `BEGIN ORDERS … END ORDERS` block
    (with or without its TOKEN line), read by the scanner that reads players' mail; a block
    without END ORDERS, two blocks, or a block for another game is one sentence and nothing
    changes."""
    site = Site(tmp_path, capsys)
    name = green(site)
    orders = tmp_path / "orders.txt"
    orders.write_text("TOKEN: anything\nclass sneaker\n")
    assert site.pbp("submit", "g1", name, str(orders), "--no-send") == 0
    orders.write_text(
        "Notes for me\n\nBEGIN ORDERS g1 T0-class\r\nTOKEN: x\r\n  class hacker\r\nEND ORDERS\r\n"
    )
    assert site.pbp("submit", "g1", name, str(orders), "--no-send") == 0
    assert [row["text"] for row in site.orders()] == ["CLASS SNEAKER", "CLASS HACKER"]
    orders.write_text("BEGIN ORDERS g1 T0-class\nCLASS SNEAKER\n")
    site.refused("submit", "g1", name, str(orders), says="has no END ORDERS line")
    orders.write_text("BEGIN ORDERS g1 T0-class\nCLASS SNEAKER\nEND ORDERS\n" * 2)
    site.refused(
        "submit", "g1", name, str(orders), says="The orders file holds 2 order blocks; put one"
    )
    orders.write_text("BEGIN ORDERS g9 T0-class\nCLASS SNEAKER\nEND ORDERS\n")
    site.refused(
        "submit", "g1", name, str(orders), says="The orders file's block is for game g9, not g1"
    )
