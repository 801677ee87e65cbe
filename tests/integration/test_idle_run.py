"""`pbp run` over the real servers waits in IMAP IDLE: a player's orders get their receipt
although the next poll is an hour away (pbp.daemon.idle, pbp.daemon.run). The test waits for events
(the daemon saying it idles, the receipt in the player's mailbox); its timeouts only guard
against a failure."""

from __future__ import annotations

import pytest

import engine
from pbp.demo.players import filled_reply_text, mail_text
from tests.fixtures.harness import infiltration_under_run, stop, wait_for


pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


def test_orders_mailed_while_pbp_run_idles_get_their_receipt_before_any_poll(
    tmp_path, mail_server, smtp_server, make_player
):
    host, players = infiltration_under_run(
        tmp_path, mail_server, smtp_server, make_player, poll_interval=3600
    )
    process = host.start_run()
    try:
        name, box = players[0]
        welcome = box.read_new(at_least=1, timeout=60)[0]  # sent by the daemon's first cycle
        wait_for(
            lambda: "waiting in IMAP IDLE for new mail" in host.log(),
            60,
            "pbp run did not idle",
            host,
        )
        record = host.record("g1")
        rules = engine.ruleset("infiltration")
        orders = rules.scripted_orders(rules.from_json(record["state"]), name, "8")
        box.reply(welcome, filled_reply_text(mail_text(welcome), orders, quote=False), quote=False)
        receipts = box.read_new(at_least=1, timeout=60)
        assert receipts, f"no receipt although IDLE was on; log:\n{host.log()}"
        assert f"Accepted for {rules.card.phase_words(record['phase_id'])}" in mail_text(
            receipts[0]
        )
        assert "next poll" not in host.log()
        assert process.poll() is None
    finally:
        stop(process)
