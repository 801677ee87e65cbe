"""Whole games through `pbp run` itself over real mail: Dovecot (IMAP
over TLS with a self-signed certificate) and aiosmtpd delivering into the players'
Dovecot mailboxes, all on loopback. Scripted players read their mail over IMAP and reply
to their forms over SMTP. The phases are an hour long: the test advances each one once
every answer is judged, so no reply races a deadline."""

from __future__ import annotations

import pytest

from tests.fixtures.harness import Host, make_players, stop, wait_all_sent, write_roster
from tests.integration.players import ScriptedPlayer, play_until_over

pytestmark = pytest.mark.integration

# (ruleset, players, seed): seeds whose scripted games are short.
GAMES = [("infiltration", 5, "8"), ("werewolf", 8, "14")]


@pytest.mark.parametrize("ruleset, count, seed", GAMES, ids=[g[0] for g in GAMES])
def test_a_complete_game_by_email_through_pbp_run(
    tmp_path, mail_server, smtp_server, make_player, ruleset, count, seed
):
    host = Host(
        tmp_path, mail_server, smtp_server, mail_server.add_user(mail_server.new_address("pbp"))
    )
    host.write_settings()
    players = make_players(make_player, count)
    roster = write_roster(tmp_path, players)
    host.pbp(
        "new-game",
        "--ruleset",
        ruleset,
        "--roster",
        str(roster),
        "--seed",
        seed,
        "--schedule",
        "default=1h",
        "--option",
        "resolve_when_all_in=off",
        "--id",
        "g1",
    )
    scripted = [
        ScriptedPlayer(name, box, quote=index % 2 == 0) for index, (name, box) in enumerate(players)
    ]
    process = host.start_run()
    try:
        record = play_until_over(host, "g1", ruleset, seed, scripted, process, timeout=600)
        rows = wait_all_sent(host, "g1")
    finally:
        stop(process)
    assert record["result"]["winners"] or record["result"]["path"].startswith("draw")
    # Every ledger row went out exactly once, to its roster address only.
    for name, box in players:
        mine = [row for row in rows if row["recipient"] == name]
        delivered = mail_server.messages(box.address)
        assert sorted(m["Message-ID"] for m in delivered) == sorted(
            row["message_id"] for row in mine
        )
        for message in delivered:
            assert message["To"].addresses[0].addr_spec == box.address
            assert message["Auto-Submitted"] in ("auto-replied", "auto-generated")
    # Orders came in by mail and were judged: receipts went out, nothing was refused.
    kinds = [row["kind"] for row in rows]
    assert kinds.count("welcome") == count and kinds.count("receipt") >= count
    assert "rejection" not in kinds
    # Each player gets one report per resolution until the one after their death: the
    # phases of their reports are a prefix of the resolved phases.
    for name, _box in players:
        phases = [
            row["phase"] for row in rows if row["kind"] == "report" and row["recipient"] == name
        ]
        assert phases and phases == record["resolved"][: len(phases)]
    assert any(
        len([row for row in rows if row["kind"] == "report" and row["recipient"] == name])
        == len(record["resolved"])
        for name, _box in players
    )
    assert len(record["resolved"]) == len(set(record["resolved"]))
    # The players' mails were filed on the server after the commit.
    assert mail_server.count(host.address, "INBOX") == 0
    assert mail_server.count(host.address, "processed") == kinds.count("receipt")
