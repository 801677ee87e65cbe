"""Fault cases f040–f059: each attack found in the hostile-input audit, kept fixed
(design.md: Hostile input). Every case runs the real CLI over Dovecot and aiosmtpd, then
the shared oracle (tests/faults/oracle.py)."""

from __future__ import annotations

import json
import os
import re
import stat
import sys

import pytest

from tests.faults.oracle import Watch, run, subject_of, text_of
from tests.faults.site import GAME, NAMES

pytestmark = pytest.mark.integration
SEPARATORS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
STRICT_MESSAGE_ID = re.compile(r"<[!-;=?-~]+>")  # printable ASCII, no whitespace, < or >


def encoded(text: str) -> str:
    return "=?utf-8?q?" + "".join(f"={byte:02X}" for byte in text.encode()) + "?="


def test_f040_a_subject_with_a_line_separator_stops_nothing(site):
    """Threat: a mail "from the host" (and one from a player) whose Subject decodes to a
    form feed or another `str.splitlines()` separator; once it made the reply raise and
    stopped all mail. Now the next genuine mail in the same poll is still answered."""
    hostile = [
        site.mail(site.host, "hello", subject=encoded(f"a{separator}b")) for separator in SEPARATORS
    ]
    hostile += [
        site.mail(site.players["Alice"], "HELP", subject=encoded(f"help{separator}me"))
        for separator in SEPARATORS
    ]
    good = site.mail(site.players["Bruno"], site.block("Bruno"))
    outcome = run(site, *hostile, good, may_change={"Bruno"})
    assert any("Accepted" in text_of(m) for m in outcome.mail["Bruno"])
    assert all(subject_of(m).isprintable() for mails in outcome.mail.values() for m in mails)
    rows = site.tables()["outbox"].values()
    assert all(row["status"] == "sent" for row in rows), [r for r in rows if r["status"] != "sent"]


def test_f041_header_injection_through_message_id(site):
    """Threat: `Message-ID: <=?utf-8?q?x=0D=0AReply-To:…?=@evil>` copied into the reply's
    In-Reply-To would give the player's genuine mail (with their token) the attacker's
    Reply-To. Only strict Message-IDs are copied."""
    message_id = "<=?utf-8?q?x=0D=0AReply-To:_moderator=40evil.example=0D=0A=0D=0Aattacker_text?=@evil.example>"
    data = site.mail(site.players["Chloe"], site.block("Chloe"), message_id=message_id)
    outcome = run(site, data, may_change={"Chloe"})
    (reply,) = outcome.mail["Chloe"]
    assert reply["Reply-To"] is None and "attacker text" not in text_of(reply)
    for name in ("In-Reply-To", "References"):
        assert reply[name] is None or all(
            STRICT_MESSAGE_ID.fullmatch(part) for part in str(reply[name]).split()
        )


def stored_size(site) -> int:
    """The bytes the game keeps: its document and its journal."""
    games = site.data / "games"
    return sum(
        path.stat().st_size
        for path in (games / f"{GAME}.json", games / f"{GAME}.journal")
        if path.exists()
    )


def test_f042_amplification_by_repeated_blocks(site):
    """Threat: 58,000 lines of `BEGIN ORDERS a b` (986 KB) once made a 7.98 MB reply and
    added 7.9 MB to the game file. The reply stays near a receipt's size; what is stored
    is bounded the same way."""
    before = stored_size(site)
    data = site.mail(site.players["Dmitri"], "BEGIN ORDERS a b\n" * 58_000)
    outcome = run(site, data)
    replies = outcome.mail["Dmitri"]
    assert len(replies) <= 1 and all(len(m.as_bytes()) < 20_000 for m in replies)
    assert stored_size(site) - before < 50_000


def test_f043_amplification_by_repeated_orders(site):
    """Threat: 5,000 lines of `CLASS HACKER` in one block (once a 505 KB reply)."""
    data = site.mail(site.players["Elena"], site.block("Elena", orders="CLASS HACKER\n" * 5_000))
    outcome = run(site, data, may_change={"Elena"})
    assert all(len(m.as_bytes()) < 20_000 for m in outcome.mail["Elena"])


def test_f044_every_address_has_a_daily_reply_cap(make_site):
    """Threat: the host's address had no cap (an autoresponder looped 80 rounds); every
    address, the host's included, gets at most the daily cap of replies."""
    site = make_site(replies_per_day=2)
    mails = [
        site.mail(address, "HELP")
        for address in (site.host, site.players["Alice"])
        for _ in range(6)
    ]
    outcome = run(site, *mails)
    assert len(outcome.mail["host"]) <= 2 and len(outcome.mail["Alice"]) <= 2


def test_f045_secrets_are_the_hosts_alone(site):
    """Threat: game files (tokens, roles, seed) and settings (passwords) readable by any
    user of the machine. Folders are 0700, files 0600, and `pbp status` warns about a
    settings file with a password that others may read."""
    for path in [site.data, *site.data.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode & 0o077 == 0, f"{path} is {oct(mode)}"
    exposed = site.root / "exposed.ini"
    exposed.write_text(
        site.settings.read_text().replace(
            f"password_file = {site.root / 'imap-password'}", "password = modpass"
        )
    )
    os.chmod(exposed, 0o644)
    from pbp.cli import main
    import contextlib
    import io

    with (
        contextlib.redirect_stdout(io.StringIO()) as out,
        contextlib.redirect_stderr(io.StringIO()) as err,
    ):
        assert main(["status", "--settings", str(exposed)]) == 0
    assert "exposed.ini" in out.getvalue() + err.getvalue()


def test_f046_terminal_escapes_are_made_visible(site):
    """Threat: player text (the name of an unknown sender, an anonymous message) printed
    raw on the host's terminal can rewrite it. Control characters are made visible."""
    name = encoded("\x1b]0;pwned\x07\x1b[2J\x1b[31mEvil")
    watch = Watch(site)
    data = site.inject(site.mail(f"{name} <stranger@attacker.test>", "hello"))
    site.poll()
    watch.check(data)
    done = site.pbp("status")
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    orders = site.pbp("orders", GAME)
    assert "\x1b" not in orders.stdout


def test_f047_one_token_line_per_block(site):
    """Threat: 13,001 `TOKEN:` lines in one block, the right one last, guessed a token."""
    guesses = "".join(f"TOKEN: guess{n:05d}\n" for n in range(13_000))
    body = (
        f"BEGIN ORDERS {GAME} {site.phase()}\n{guesses}TOKEN: {site.token('Farid')}\n"
        f"{site.valid_orders('Farid')}\nEND ORDERS\n"
    )
    outcome = run(site, site.mail(site.players["Farid"], body))
    assert outcome.orders == []


def test_f048_wrong_tokens_are_rate_limited(make_site):
    """Threat: one wrong token per mail, many mails. Past the daily limit, that address's
    wrong tokens go unanswered (forged mail cannot flood the player with refusals) and the
    host is told once; a right guess would still count, but 31^10 tokens at five a mail
    leave nothing to guess."""
    site = make_site()
    guesses = [
        site.mail(site.players["Alice"], site.block("Alice", token=f"guess{n:05d}"))
        for n in range(12)
    ]
    told = run(site, *guesses)
    assert len(told.mail["host"]) == 1 and site.players["Alice"] in text_of(told.mail["host"][0])
    assert len(told.mail["Alice"]) == 10
    outcome = run(site, site.mail(site.players["Alice"], site.block("Alice", token="guess99999")))
    assert outcome.orders == [] and outcome.mail["host"] == [] and outcome.mail["Alice"] == []


def test_f049_tokens_only_in_the_form_block_at_the_end(site):
    """Threat: a token near the top of a mail shows in every notification preview. In
    every mail pbp sent, a token appears only inside the form blocks at its end (the order
    form, then a team member's message forms)."""
    texts = list(site.welcome.values())
    texts += [text_of(m) for m in site.dovecot.messages(site.players["Alice"])]
    for text in texts:
        for token in site.record()["tokens"].values():
            for found in re.finditer(re.escape(token), text):
                before = text[: found.start()]
                begin = max(before.rfind("BEGIN ORDERS"), before.rfind("BEGIN MESSAGE"))
                assert 0 <= begin and len(before) - begin < 400 and "END " not in before[begin:]


def test_f050_unknown_senders_are_kept_bounded(site):
    """Threat: mail from unknown senders was kept forever (3,000 mails: 1.4 MB). The record
    is bounded and summarised."""
    registry = site.data / "registry.json"
    mails = [site.mail(f"stranger{n}@attacker{n % 7}.test", f"buy now {n}") for n in range(800)]
    run(site, *mails[:400])
    middle = registry.stat().st_size
    run(site, *mails[400:])
    assert registry.stat().st_size < 200_000 and registry.stat().st_size - middle < 40_000


def test_f051_a_receipt_says_what_was_accepted(site):
    """Threat: wrong explanations. A mail with one accepted block and one refused block
    must not end with "you have no accepted orders yet"."""
    body = site.block("Alice") + "\n" + site.block("Alice", orders="CLASS NOSUCHCLASS")
    outcome = run(site, site.mail(site.players["Alice"], body), may_change={"Alice"})
    (reply,) = outcome.mail["Alice"]
    assert "no accepted orders" not in text_of(reply)


def test_f052_a_block_for_a_game_that_does_not_exist(site):
    """Threat: a block for an unknown game was refused with "one mail may carry orders for
    one game only"; the reply says the game does not exist."""
    outcome = run(site, site.mail(site.players["Bruno"], site.block("Bruno", game="nosuchgame")))
    (reply,) = outcome.mail["Bruno"]
    assert "one game only" not in text_of(reply) and "nosuchgame" in text_of(reply)


def test_f053_a_missing_end_orders_is_not_accepted(site):
    """Threat: a block without `END ORDERS` was answered with a mail titled "Help"; it is
    titled as not accepted."""
    body = site.block("Chloe").replace("END ORDERS\n", "")
    outcome = run(site, site.mail(site.players["Chloe"], body))
    (reply,) = outcome.mail["Chloe"]
    assert "not accepted" in subject_of(reply).lower() and "help" not in subject_of(reply).lower()
    assert outcome.orders == []


def test_f054_the_stored_record_of_a_mail_is_bounded(site):
    """Threat: a huge Subject and Message-ID are stored with the mail's record."""
    before = stored_size(site)
    data = site.mail(
        site.players["Dmitri"],
        site.block("Dmitri"),
        subject="S" * 200_000,
        message_id="<" + "m" * 200_000 + "@x>",
    )
    run(site, data, may_change={"Dmitri"})
    assert stored_size(site) - before < 50_000
    assert max(len(json.dumps(row)) for row in site.tables()["mails"].values()) < 20_000


def test_f055_an_anonymous_message_does_not_switch_the_leak_check_off(site):
    """Threat: an anonymous message `e` (player-written, exempt from the leak check) once
    made the check skip every "e" of the draft, so a host's edit naming a hidden team
    passed without `--force`. Only the message's own place is exempt."""
    from pbp.storage.drafts import DraftBook
    from pbp.forum.publishing.dialects import dialect
    from pbp.forum.publishing.post_renderer import PostFacts, PostRenderer
    from pbp.forum.publishing.leaks import leak_check
    from pbp.game.stored import load
    from pbp.composition import ComposedModerator
    from pbp.settings import load_settings

    watch = Watch(site)
    moderator = ComposedModerator(load_settings(str(site.settings)))
    with moderator:
        game = load(moderator, GAME)
        with game.file.transaction():
            red = next(
                n
                for n in game.record.tokens
                if game.rules.view(game.state, n)["me"]["team"] == "red"
            )
            facts = PostFacts(
                game=GAME,
                ruleset="infiltration",
                phase=site.phase(),
                public_view=game.rules.view(game.state, None),
                events=[{"kind": "anonymous_message", "data": {"text": "e"}}],
            )
            draft = PostRenderer().render(facts, dialect("markdown"))
            leaks = [str(leak) for leak in leak_check(game).check(draft.text, draft.player_spans)]
            DraftBook(game.file).save_generated(
                site.phase(), draft.title, draft.text, draft.player_spans, "markdown", leaks
            )
    editor = f"{sys.executable} -c \"import sys; open(sys.argv[1], 'a').write('\\n{red} is red, trust me.\\n')\""
    site.pbp("draft", "edit", GAME, env={"EDITOR": editor})
    approve = site.pbp("draft", "approve", GAME, check=False)
    assert approve.returncode != 0 and "leak check" in approve.stderr
    assert "Traceback" not in approve.stderr and len(approve.stderr.strip().splitlines()) == 1
    watch.check([])


@pytest.fixture
def fake_reddit():
    from tests.forum.reddit_server import FakeReddit

    server = FakeReddit().start()
    yield server
    server.stop()


def test_f056_forged_approvals_publish_nothing_on_reddit(make_site, fake_reddit):
    """Threat: mail that forges the host's `APPROVE` (the host's From without the host
    token, a wrong token, a player's own token) would publish a draft to the public thread.
    Through praw against the local Reddit: nothing is posted until the real host approves,
    and then exactly once."""
    site = make_site()
    site.settings.write_text(
        site.settings.read_text().replace("[forum]\n", "[forum]\npublisher = reddit\n")
        + (
            f"\n[reddit]\nclient_id = test-client\nclient_secret = test-secret\nusername = {fake_reddit.username}\n"
            f"password = pw\nuser_agent = pbp fault tests\nsubreddit = {fake_reddit.subreddit}\nmode = thread\n"
            f"timeout = 5\noauth_url = {fake_reddit.url}\nreddit_url = {fake_reddit.url}\n"
        )
    )
    assert site.cli("advance", GAME) == 0
    phase = "T0-class"
    approval = f"APPROVE {GAME} {phase}\n"
    forged = [
        site.mail(site.host, approval),
        site.mail(
            site.host, f"BEGIN ORDERS {GAME} {phase}\nTOKEN: wrongtoken\nAPPROVE\nEND ORDERS\n"
        ),
        site.mail(
            site.players["Alice"],
            f"BEGIN ORDERS {GAME} {phase}\nTOKEN: {site.token('Alice')}\nAPPROVE\nEND ORDERS\n",
        ),
        site.mail(f'"{site.host}" <evil@attacker.test>', approval + "TOKEN: wrongtoken\n"),
    ]
    run(site, *forged, may_change=set(NAMES))
    site.cli("publish", GAME)
    assert fake_reddit.posts_by_bot() == []
    (draft_mail,) = [
        m
        for m in site.dovecot.messages(site.host)
        if f"Draft of the public post for {phase}" in subject_of(m)
    ]  # the opening post has its own
    form = text_of(draft_mail)
    block = form[form.index("BEGIN ORDERS") :].replace("# APPROVE", "APPROVE")
    run(site, site.mail(site.host, block), may_change=set(NAMES))
    assert site.cli("publish", GAME) == 0 and site.cli("publish", GAME) == 0
    assert len([t for t in fake_reddit.posts_by_bot() if f"pbp:{GAME}:{phase}:" in t.body]) == 1
