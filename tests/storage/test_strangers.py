"""Mail from unknown senders is summarised, not kept (docs/design.md: Order mail format — no
reply, the host sees it in `pbp status`; Hostile input — an outsider cannot grow pbp's
files without bound)."""

from __future__ import annotations

from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.ports import InboundMail
from pbp.host.status import status_text
from pbp.storage.strangers import MAX_SENDERS, RECENT_MAILS, StrangerLog
from tests.fixtures.harness import ROSTER


def stranger_mail(number: int, address: str) -> InboundMail:
    return InboundMail(
        key=f"1:{number}",
        sha256=f"sha{number}",
        sender=address,
        message_id=f"<m{number}@x>",
        subject=f"spam number {number} " + "x" * 500,
    )


def test_thousands_of_unknown_mails_leave_a_bounded_summary(moderator, sender):
    create_game(moderator, "ballot", ROSTER, seed="s")
    desk = Desk(moderator)
    registry = moderator.folder.path / "registry.json"
    sizes = []
    for start in range(0, 4000, 500):
        with desk.batch():
            for number in range(start, start + 500):
                address = "regular@spam.example" if number % 2 else f"spammer{number}@spam.example"
                assert desk.receive(stranger_mail(number, address)) == "rejected"
        sizes.append(registry.stat().st_size)
    assert sizes[-1] <= sizes[1] * 1.1  # full after the first thousand mails; no growth after
    summary = StrangerLog(moderator.folder).summary()
    assert summary["mails"] == 4000 and len(summary["senders"]) == MAX_SENDERS
    assert (
        summary["forgotten_senders"] == 2001 - MAX_SENDERS
        and len(summary["recent"]) == RECENT_MAILS
    )
    regular = summary["senders"]["regular@spam.example"]
    assert regular["count"] == 2000 and regular["last"] >= regular["first"]
    text = status_text(moderator.folder)
    assert (
        f"Mail from unknown senders (not answered): 4000 from {MAX_SENDERS} addresses; "
        f"{2001 - MAX_SENDERS} addresses silent the longest are no longer listed"
    ) in text
    assert (
        "spammer3998@spam.example: 1 mail(s)" in text
        and "regular@spam.example: 2000 mail(s)" in text
    )
    assert sender.sent == []


def test_a_recent_unknown_mail_received_again_is_recognised(moderator):
    create_game(moderator, "ballot", ROSTER, seed="s")
    Desk(moderator).receive(stranger_mail(1, "eve@evil.example"))
    restarted = Desk(moderator)
    assert restarted.already_handled("1:1", "sha1") == "rejected"
    restarted.receive(stranger_mail(1, "eve@evil.example"))
    assert StrangerLog(moderator.folder).summary()["mails"] == 1


def test_refused_mail_from_outsiders_is_counted_and_a_player_s_is_listed(moderator):
    create_game(moderator, "ballot", ROSTER, seed="s")
    desk = Desk(moderator)
    for number in range(3):
        desk.record_quarantine(
            f"9:{number}", "", "Mallory <mallory@evil.example>", "", "over the size limit"
        )
    desk.record_quarantine("9:9", "", "alice@example.org", "", "over the size limit")
    summary = StrangerLog(moderator.folder).summary()
    assert summary["mails"] == 3 and summary["senders"]["mallory@evil.example"]["count"] == 3
    assert [row["sender"] for row in moderator.folder.mails.all()] == ["alice@example.org"]
    assert "Quarantined or too big (not answered): 1" in status_text(moderator.folder)
