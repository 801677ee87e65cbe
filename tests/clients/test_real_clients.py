"""Replies of real mail clients, read by the real CLI (docs/mail-clients.md).

Each corpus case (tests/clients/corpus.py) is a reply rebuilt from real messages of one
client, to pbp's real mail, filled in one of the ways players fill forms. It goes into
`<data>/mail/inbox/new`, `pbp poll` reads it, and the receipt and `pbp orders` tell what
pbp made of it. The target: every reply accepted as meant, except a reply that holds no
reading without guessing, which is refused with its true reason; never a misread.

A sample also goes over real Dovecot IMAP and aiosmtpd: the player's mail is fetched
from their mailbox, the reply delivered into pbp's INBOX over LMTP.
"""

from __future__ import annotations

import email
from collections import Counter
from email import policy
from email.utils import parseaddr
from pathlib import Path

import pytest

from pbp.render.languages import languages
from tests.clients.clients import CLIENTS
from tests.clients.corpus import CASES, Case
from tests.clients.grounds import WEREWOLF_NAMES, Scenario, Site, recorded_orders
from tests.clients.outcome import ACCEPTED, MISREAD, Outcome, run_case, run_on_ground
from tests.fixtures.harness import plain_smtp

FAMILIES = (
    "Gmail web",
    "Gmail Android",
    "Outlook desktop (HTML",
    "Outlook desktop HTML only",
    "Outlook desktop (plain",
    "Outlook web",
    "Outlook iOS",
    "Apple Mail",
    "iPhone",
    "Thunderbird",
    "Yahoo",
    "Horde",
)
STYLES = (
    "kept",
    "literal",
    "deleted",
    "typed-in-quote",
    "bottom",
    "own-mail",
    "changed",
    "html-only",
    "withdraw",
    "outside",
)


def explained(outcome: Outcome) -> str:
    return (
        f"{outcome.case.id}: {outcome.verdict} (expected {outcome.expected}); meant {outcome.meant}, "
        f"recorded {outcome.recorded} (before: {outcome.before})\nreceipt:\n{outcome.receipt[:1500]}"
    )


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_a_real_clients_reply_is_read_as_meant(case: Case, language, grounds_in, tmp_path):
    """Every reply is accepted as meant (docs/design.md: Order mail format), or, when it
    holds no reading without guessing, refused with a receipt that says the true reason;
    no reply is misread; whatever language the form it answers is written in."""
    outcome = run_on_ground(grounds_in(language)[case.scenario], case, tmp_path)
    assert outcome.verdict != MISREAD, explained(outcome)
    assert outcome.verdict == outcome.expected, explained(outcome)


def test_the_corpus_covers_the_clients_languages_styles_and_rulesets():
    """At least 60 replies; every mainstream client family; at least four languages other
    than English; every fill style; both rulesets."""
    labels = {CLIENTS[case.client].label for case in CASES}
    assert len(CASES) >= 60
    assert len({case.id for case in CASES}) == len(CASES)
    assert all(any(label.startswith(family) for label in labels) for family in FAMILIES)
    assert len({CLIENTS[case.client].language for case in CASES} - {"en"}) >= 4
    assert set(STYLES) <= {case.style for case in CASES}
    assert {case.scenario.split("-")[0] for case in CASES} == {"ww", "inf"}
    assert Counter(case.expect for case in CASES)["accepted"] >= 55


def test_every_client_names_its_sources_and_they_are_listed():
    """Each profile is rebuilt from real messages, cited with their licence in the README."""
    readme = (Path(__file__).parent / "README.md").read_text(encoding="utf-8")
    listed = {line.split("|")[1].strip() for line in readme.splitlines() if line.startswith("| ")}
    for client in CLIENTS.values():
        assert client.sources and set(client.sources) <= listed, client.key


# ---------------------------------------------------------------------- over Dovecot IMAP
IMAP_SAMPLE = (
    "gmail-web/ww-nominate/kept",
    "outlook-desktop/ww-nominate/own-mail",
    "thunderbird/ww-nominate/bottom",
    "apple-mail-html/ww-nominate/html-only",
    "outlook-html-only-nl/ww-nominate/kept",
    "iphone/ww-nominate/outside",
)


class ImapMailboxes:
    """pbp over IMAP and SMTP, players' mailboxes on the same Dovecot."""

    def __init__(self, site: Site, dovecot, moderator: str) -> None:
        self.site, self.dovecot, self.moderator = site, dovecot, moderator

    def mails_to(self, address: str) -> list[bytes]:
        with self.dovecot.imap(address) as client:
            client.select_folder("INBOX", readonly=True)
            uids = client.search(["NOT", "DELETED"])
            fetched = client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
            return [fetched[uid][b"BODY[]"] for uid in sorted(fetched)]

    def deliver(self, data: bytes) -> None:
        sender = parseaddr(str(email.message_from_bytes(data, policy=policy.default)["From"]))[1]
        self.dovecot.deliver_lmtp(self.moderator, data, sender)

    def poll(self) -> str:
        return self.site.cli("poll")

    def recorded_orders(self, game: str, player: str) -> tuple[str, ...]:
        return recorded_orders(self.site.cli("orders", game), player)


@pytest.mark.integration
def test_a_sample_of_the_corpus_over_dovecot_imap(
    tmp_path: Path, dovecot, smtp_server, client_grounds
):
    """The same replies, fetched and delivered over real IMAP and SMTP, reach the same
    outcomes as over the Maildir transport."""
    moderator = dovecot.add_user(dovecot.new_address("pbp", "pbp.test"), "modpass")
    players = {
        name: dovecot.add_user(dovecot.new_address(name.lower().replace("é", "e")))
        for name in WEREWOLF_NAMES
    }
    site = Site(tmp_path)
    (tmp_path / "imap-password").write_text("modpass\n")
    site.write_settings(
        {
            "pbp": {
                "data": site.data,
                "transport": "imap",
                "from_address": moderator,
                "replies_per_sender_per_day": 1000,
            },
            "imap": {
                "host": dovecot.host,
                "port": dovecot.imap_port,
                "security": "none",
                "user": moderator,
                "password_file": tmp_path / "imap-password",
                "idle": "off",
            },
            "smtp": plain_smtp(smtp_server),
        }
    )
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "name,email\n" + "".join(f"{n},{a}\n" for n, a in players.items()), encoding="utf-8"
    )
    site.cli(
        "new-game", "--ruleset", "werewolf", "--roster", str(roster), "--seed", "5", "--id", "ww1"
    )
    site.cli("advance", "ww1")
    mailboxes = ImapMailboxes(site, dovecot, moderator)
    base = client_grounds["ww-nominate"].scenario
    cases = [case for case in CASES if case.id in IMAP_SAMPLE]
    assert len(cases) == len(IMAP_SAMPLE)
    outcomes = [
        run_case(
            mailboxes,
            Scenario(
                base.key, base.ruleset, base.game, base.phase, name, base.orders, players[name]
            ),
            case,
        )
        for case, name in zip(cases, WEREWOLF_NAMES[1:])
    ]  # a player of their own per case
    wrong = [explained(outcome) for outcome in outcomes if outcome.verdict != outcome.expected]
    assert not wrong, "\n\n".join(wrong)
    assert all(outcome.receipt for outcome in outcomes if outcome.verdict == ACCEPTED)
