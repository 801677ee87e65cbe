"""Fault cases f001–f019: who a mail claims to be from, and mail that must never be
answered (design.md: Hostile input; Reliability rules — Identity, Loops). Every case runs
the real `pbp poll` over Dovecot and aiosmtpd, then the shared oracle (tests/faults/oracle.py)."""

from __future__ import annotations

import pytest

from tests.faults.oracle import answered, run, text_of
from tests.faults.site import Site

pytestmark = pytest.mark.integration
OUTSIDER = "evil@attacker.test"


def test_f001_spoofed_from_with_a_copied_valid_block(site):
    """Threat: an outsider copies Alice's valid block (token included) and sends it as
    Alice. pbp cannot tell, so the orders stand as Alice's — but the receipt goes to
    Alice's own address only, never to the sender, so Alice learns of it at once."""
    data = site.mail(site.players["Alice"], site.block("Alice"), headers=f"Reply-To: {OUTSIDER}")
    outcome = run(site, data, may_change={"Alice"})
    assert [row["player"] for row in outcome.orders] == ["Alice"]
    assert answered(outcome) == ["Alice"]


def test_f002_spoofed_from_with_another_players_block(site):
    """Threat: a mail claiming to be Bruno carries Alice's copied block and token; it must
    not place orders for anyone."""
    data = site.mail(site.players["Bruno"], site.block("Alice"))
    outcome = run(site, data)
    assert outcome.orders == []
    assert answered(outcome) in ([], ["Bruno"])


def test_f003_display_name_spoofing(site):
    """Threat: `"alice@…" <evil@…>` — the display name looks like a roster address; the
    real address is the outsider's, who gets nothing."""
    data = site.mail(f'"{site.players["Alice"]}" <{OUTSIDER}>', site.block("Alice"))
    outcome = run(site, data)
    assert outcome.orders == [] and answered(outcome) == []


def test_f004_two_from_addresses(site):
    """Threat: `From: alice, evil` — which one is the sender? Neither: no orders, no reply."""
    data = site.mail(f"{site.players['Alice']}, {OUTSIDER}", site.block("Alice"))
    outcome = run(site, data)
    assert outcome.orders == [] and answered(outcome) == []


CVE_2023_27043 = [
    # Shapes that older `email.utils` parsed into the wrong address (gh-102988).
    '"{alice}" <{evil}>',
    "{evil}@{alice_domain}",
    '"{alice_local}@{alice_domain}"@attacker.test',
    "{alice_local}@{alice_domain}@attacker.test",
    "<{alice}>@attacker.test",
    "{alice} <{evil}>",
    '"{alice}"',
    "{alice}\\, <{evil}>",
    "{alice}(comment) <{evil}>",
    "{evil}<{alice}>x",
]


def test_f005_cve_2023_27043_address_shapes(site):
    """Threat: address shapes that Python's parser once read as a different address
    (CVE-2023-27043). None of them may place Alice's orders or make pbp mail the outsider."""
    alice = site.players["Alice"]
    local, domain = alice.split("@")
    mails = [
        site.mail(
            shape.format(
                alice=alice,
                evil=OUTSIDER,
                alice_local=local,
                alice_domain=domain,
                evil_local="evil",
            ),
            site.block("Alice"),
        )
        for shape in CVE_2023_27043
    ]
    outcome = run(site, *mails)
    assert outcome.orders == []


def test_f006_reply_to_an_outsider(site):
    """Threat: a genuine player's mail with `Reply-To: evil` — the receipt (with the
    player's token in its form) must go to the roster address, never to Reply-To."""
    data = site.mail(site.players["Chloe"], site.block("Chloe"), headers=f"Reply-To: {OUTSIDER}")
    outcome = run(site, data, may_change={"Chloe"})
    assert answered(outcome) == ["Chloe"]
    assert "Accepted" in text_of(outcome.mail["Chloe"][0])


@pytest.mark.parametrize(
    "header",
    [
        "Auto-Submitted: auto-replied",
        "Auto-Submitted: auto-generated",
        "Precedence: bulk",
        "Precedence: junk",
        "Precedence: list",
        "List-Id: <players.lists.example>",
    ],
)
def test_f007_automatic_mail_is_never_answered(site, header):
    """Threat: mail loops with robots (autoresponders, lists): mail marked automatic
    is never answered, even with a valid block."""
    data = site.mail(
        site.players["Dmitri"], site.block("Dmitri", token="WRONGTOKEN1"), headers=header
    )
    outcome = run(site, data)
    assert answered(outcome) == [] and outcome.orders == []


def test_f008_empty_return_path_bounce(site):
    """Threat: a bounce (empty return path `<>`) answered would loop with the mail server."""
    data = site.mail(
        site.players["Dmitri"], "Delivery failed.\n" + site.block("Dmitri", token="WRONGTOKEN2")
    )
    outcome = run(site, data, envelope_from="")
    assert answered(outcome) == []


def test_f009_mailer_daemon_bounce(site):
    """Threat: a MAILER-DAEMON bounce quoting pbp's own mail back."""
    data = site.mail(
        f"Mail Delivery System <MAILER-DAEMON@{site.players['Elena'].split('@')[1]}>",
        "Undeliverable.\n" + site.block("Elena", token="WRONGTOKEN3"),
    )
    outcome = run(site, data)
    assert answered(outcome) == [] and outcome.orders == []


def test_f010_mail_from_pbp_itself(site):
    """Threat: mail claiming pbp's own address (a loop with itself)."""
    data = site.mail(site.moderator, site.block("Elena"))
    outcome = run(site, data)
    assert answered(outcome) == [] and outcome.orders == []


def test_f011_no_from_header(site):
    """Threat: a mail without `From` has no sender at all."""
    outcome = run(site, site.mail(None, site.block("Elena")))
    assert answered(outcome) == [] and outcome.orders == []


def test_f012_rfc2047_crlf_in_the_senders_name(site):
    """Threat: an encoded CR LF in the display name tries to add headers to the reply."""
    name = "=?utf-8?q?Farid=0D=0ABcc:_evil=40attacker.test=0D=0A?="
    data = site.mail(f"{name} <{site.players['Farid']}>", site.block("Farid", token="WRONGTOKEN4"))
    outcome = run(site, data)
    for message in outcome.mail["Farid"]:
        assert message["Bcc"] is None and message["Reply-To"] is None


def test_f013_rfc2047_crlf_in_the_subject(site):
    """Threat: an encoded CR LF in the Subject, copied into the reply's Subject, would let
    the sender write headers (or the top of the body) of pbp's mail to a player."""
    subject = "=?utf-8?q?orders=0D=0AReply-To:_evil=40attacker.test=0D=0A=0D=0Ainjected?="
    data = site.mail(
        site.players["Farid"], site.block("Farid", token="WRONGTOKEN5"), subject=subject
    )
    outcome = run(site, data)
    for message in outcome.mail["Farid"]:
        assert message["Reply-To"] is None and "\n" not in str(message["Subject"])
        assert not text_of(message).startswith("injected")


def test_f014_autoresponder_loop_at_a_player(make_site):
    """Threat: a player's autoresponder answers every mail, without any automatic-mail
    header. pbp's answers stop at the daily cap; the loop ends."""
    site = make_site(replies_per_day=3)
    rounds = loop_with(site, site.players["Bruno"], rounds=8)
    assert rounds <= 3


def test_f015_autoresponder_loop_at_the_host(make_site):
    """Threat: the host's autoresponder answers every mail; the host address has the same
    daily cap as everyone, so the loop ends."""
    site = make_site(replies_per_day=3)
    rounds = loop_with(site, site.host, rounds=8)
    assert rounds <= 3


def loop_with(site: Site, address: str, rounds: int) -> int:
    """An autoresponder at `address` answers pbp; how many rounds pbp answered."""
    answered_rounds = 0
    for number in range(rounds):
        data = site.mail(
            address,
            f"I am away until Monday (auto-reply {number}).",
            subject="Out of office: Re: [g1] Orders received",
        )
        outcome = run(site, data)
        if any(outcome.mail.values()):
            answered_rounds += 1
    return answered_rounds
