"""Fault cases f080–f099: attacks from outside on the channels, sign-ups, spectators,
bounces and sender authentication, each kept fixed (docs/design.md: Hostile input). The
threat is in each docstring. Cases that need the whole site run the real CLI over Dovecot
and aiosmtpd, then the shared oracle (tests/faults/oracle.py); the others call the one
function under attack."""

from __future__ import annotations


import pytest

from pbp.mail.ingest.inbound import parse_inbound
from pbp.ports import RawMail
from tests.faults.growth import work_ratio
from tests.faults.oracle import prose_of, run, subject_of
from tests.faults.site import GAME, NAMES
from tests.fixtures.harness import Ground
from tests.fixtures.mailserver import delivery_status_notification

MAX_MAIL = 2_000_000


def many_ids(count: int, start: int = 0) -> str:
    return " ".join(f"<{n:x}@e>" for n in range(start, start + count))


def stranger_mail(references: str) -> bytes:
    return (
        f"From: stranger@attacker.example\r\nTo: pbp@games.example\r\nSubject: hello\r\n"
        f"Message-ID: <first@attacker.example>\r\nIn-Reply-To: <last@attacker.example>\r\n"
        f"References: {references}\r\n\r\nhello\r\n"
    ).encode()


def forged_report(quoted_ids: str) -> bytes:
    """A delivery report whose returned headers hold `quoted_ids` as Message-IDs."""
    return (
        "From: MAILER-DAEMON@attacker.example\r\nTo: pbp@games.example\r\nSubject: Undelivered\r\n"
        "Auto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n'
        "--b\r\nContent-Type: text/plain\r\n\r\nFailed.\r\n"
        "--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; attacker.example\r\n\r\n"
        "Final-Recipient: rfc822; alice@players.example\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n"
        "--b\r\nContent-Type: text/rfc822-headers\r\n\r\n"
        f"From: pbp@games.example\r\nMessage-ID: {quoted_ids}\r\nReferences: {quoted_ids}\r\n\r\n"
        "--b--\r\n"
    ).encode()


def cost_ratio(make_mail, small: int = 1_000, large: int = 100_000) -> float:
    """The CPU cost of reading one mail with `large` ids over that of reading
    `large // small` mails with `small` ids each (tests.faults.growth)."""
    read = lambda data: parse_inbound(RawMail("1:1", data, "sha"), ("pbp@games.example",), MAX_MAIL)  # noqa: E731
    return work_ratio(read, make_mail, small, large)


def test_f080_reading_message_ids_is_linear_and_bounded():
    """Threat: a 989 kB mail from a stranger with 100,000 ids in `References` cost 70 CPU
    seconds (every id was looked for in the list of ids kept so far) before anyone checked
    its sender, while the daemon held the data folder. Reading 100,000 ids costs about as
    much as reading 100 mails of 1,000, and only the thread's latest ten are kept."""
    data = stranger_mail(many_ids(100_000))
    assert len(data) < 1_000_000  # under the default size limit
    mail = parse_inbound(RawMail("1:1", data, "sha"), (), MAX_MAIL)
    assert mail.message_id == "<first@attacker.example>"
    assert len(mail.references) == 10 and mail.references[-1] == "<last@attacker.example>"
    assert cost_ratio(lambda count: stranger_mail(many_ids(count))) < 4


def test_f081_reading_a_delivery_report_is_linear_and_bounded():
    """Threat: the same in a delivery report: the Message-IDs of the returned mail were
    collected the same quadratic way, and all of them were stored with the bounce. Reading
    a report quoting 100,000 ids costs about as much as 100 reports of 1,000, and a
    bounce keeps at most a few ids."""
    report = parse_inbound(RawMail("1:1", forged_report(many_ids(100_000)), "sha"), (), MAX_MAIL)
    assert report.bounce is not None and 1 <= len(report.bounce.original_ids) <= 5
    assert cost_ratio(lambda count: forged_report(many_ids(count))) < 4


def authenticated_mail(*results: str) -> bytes:
    """A player's mail as the trusted server stored it: its Authentication-Results (in
    order, the trusted server's on top), its trace line, then what the sender wrote,
    which ends with a forged header of the trusted server's id."""
    head = "".join(f"Authentication-Results: {value}\r\n" for value in results)
    return (
        f"Return-Path: <alice@example.org>\r\n{head}"
        "Received: from [192.0.2.1] by mx.trusted.example; Mon, 30 Nov 2026 10:00:00 +0000\r\n"
        "Authentication-Results: mx.trusted.example; dmarc=pass header.from=example.org\r\n"
        "From: alice@example.org\r\nSubject: orders\r\nMessage-ID: <a1@example.org>\r\n\r\nHELP\r\n"
    ).encode()


def test_f082_only_the_trusted_servers_topmost_header_is_read():
    """Threat: when the trusted server's own Authentication-Results could not be parsed
    (the sender causes this with an address-literal HELO, a domain-literal or a UTF-8
    envelope sender), pbp skipped it and trusted a forged `dmarc=pass` of the same id
    further down. The topmost header of the trusted id is the only one read; if it cannot
    be read, the mail is not authenticated."""
    from pbp.mail.sender_auth import refusal

    trusted = "mx.trusted.example"
    unreadable = [
        f"{trusted}; spf=pass smtp.helo=[192.0.2.1]",
        f"{trusted}; spf=pass smtp.mailfrom=alice@[192.0.2.1]",
        f"{trusted}; spf=pass smtp.mailfrom=jö@exämple.org; dmarc=fail header.from=example.org",
        f"{trusted} (a comment; with a semicolon) dkim=pass",
    ]
    for value in unreadable:
        mail = parse_inbound(RawMail("1:1", authenticated_mail(value), "sha"), (), MAX_MAIL)
        assert "could not be read" in (
            refusal(mail.authentication_results, "alice@example.org", trusted) or ""
        ), value
    readable = parse_inbound(
        RawMail("1:1", authenticated_mail(f"{trusted}; dmarc=fail header.from=example.org"), "sha"),
        (),
        MAX_MAIL,
    )
    assert "fails DMARC" in refusal(readable.authentication_results, "alice@example.org", trusted)
    other_server_on_top = parse_inbound(
        RawMail(
            "1:1",
            authenticated_mail(
                "spam-filter.example; x=1 ((", f"{trusted}; dmarc=pass header.from=example.org"
            ),
            "sha",
        ),
        (),
        MAX_MAIL,
    )
    assert refusal(other_server_on_top.authentication_results, "alice@example.org", trusted) is None


def report_for(site, failed: str, quoted: str) -> bytes:
    """A delivery report as mail systems write them, to pbp, naming `failed` and returning
    a mail whose Message-ID header reads `quoted`."""
    original = (
        f"From: pbp <{site.moderator}>\r\nTo: {failed}\r\nMessage-ID: {quoted}\r\nSubject: hi\r\n"
    )
    return delivery_status_notification(site.moderator, failed, original.encode(), "[192.0.2.9]")


def bounced(site, name: str) -> list[str]:
    site.cli("status")
    return [line for line in site.last_output.splitlines() if f"BOUNCED: mail to {name} " in line]


def sent_id(site, name: str) -> str:
    return next(
        row["message_id"] for row in site.tables()["outbox"].values() if row["recipient"] == name
    )


@pytest.mark.integration
def test_f083_forged_delivery_reports_flag_nobody(site):
    """Threat: two forged delivery reports naming Alice's address, quoting nothing pbp
    sent her (a made-up id, an id of pbp's shape, the id of a mail Bruno got, as Bruno
    could forge), flagged an honest player in `pbp status` ("substitute them") and mailed
    the host. A report counts only when it quotes a Message-ID pbp sent to that address."""
    alice = site.players["Alice"]
    forged = [
        report_for(site, alice, "<made-up@attacker.example>"),
        report_for(site, alice, f"<pbp.{GAME}.T0-class.welcome.0123456789abcdef0123@pbp.test>"),
        report_for(site, alice, sent_id(site, "Bruno")),
    ]
    outcome = run(site, *forged, envelope_from="")
    assert bounced(site, "Alice") == []
    assert not any("Alice" in subject_of(m) for m in outcome.mail["host"])
    genuine = run(site, report_for(site, alice, sent_id(site, "Alice")), envelope_from="")
    assert "bounced once" in bounced(site, "Alice")[0]
    assert [subject_of(m) for m in genuine.mail["host"]] == [f"[{GAME}] Mail to Alice bounced"]


@pytest.mark.integration
def test_f084_a_delivery_report_stores_a_bounded_record(site):
    """Threat: ten 950 kB reports quoting thousands of Message-IDs made a 10 MB game file
    (every id was stored with the bounce). A bounce keeps the few ids it matched."""
    games = site.data / "games"
    size = lambda: sum(p.stat().st_size for p in games.glob(f"{GAME}.*"))  # noqa: E731
    before = size()
    quoted = sent_id(site, "Chloe") + " " + many_ids(100_000)
    reports = [report_for(site, site.players["Chloe"], quoted) for _ in range(10)]
    assert 900_000 < len(reports[0]) < site.max_mail_size
    run(site, *reports, envelope_from="")
    assert size() - before < 50_000
    assert "bounced 10 times" in bounced(site, "Chloe")[0]


def blocks(site, name: str, tokens: list[str]) -> str:
    return "\n".join(site.block(name, token=token) for token in tokens)


@pytest.mark.integration
def test_f085_wrong_tokens_never_lock_the_player_out(make_site):
    """Threat: two forged mails from Alice's address with five wrong tokens each locked
    Alice out until 00:00 UTC, her right token included. Wrong tokens are counted per
    address and throttle only the answers to wrong tokens: a block with the right token
    always counts, and resets the count."""
    site = make_site()
    alice = site.players["Alice"]
    forged = [
        site.mail(alice, blocks(site, "Alice", [f"guess{m}{n:04d}" for n in range(5)]))
        for m in range(2)
    ]
    told = run(site, *forged)
    assert len(told.mail["host"]) == 1 and alice in prose_of(told.mail["host"][0])
    assert len(told.mail["Alice"]) == 2  # each wrong token under the limit is answered
    more = run(
        site, *[site.mail(alice, site.block("Alice", token=f"late{n:05d}")) for n in range(3)]
    )
    assert more.mail["Alice"] == [] and more.mail["host"] == []  # past the limit: not answered
    genuine = run(site, site.mail(alice, site.block("Alice")), may_change={"Alice"})
    assert [row["player"] for row in genuine.orders] == ["Alice"]
    assert "Accepted" in prose_of(genuine.mail["Alice"][0])
    again = run(site, site.mail(alice, site.block("Alice", token="typo000000")))
    assert len(again.mail["Alice"]) == 1  # the count started again: a typo is answered
    assert "not your token" in prose_of(again.mail["Alice"][0])


@pytest.mark.integration
def test_f086_wrong_host_tokens_never_lock_the_host_out(make_site):
    """Threat: ten forged mails from the host's address with a wrong host token locked
    approvals by mail for the day. The host's right token always works."""
    site = make_site()
    assert site.cli("advance", GAME) == 0
    phase = "T0-class"
    forged = [
        site.mail(site.host, f"APPROVE {GAME} {phase}\nTOKEN: wrong{n:05d}\n") for n in range(12)
    ]
    run(site, *forged, may_change=set(NAMES))
    host_token = site.record()["host_token"]
    approved = run(
        site,
        site.mail(site.host, f"APPROVE {GAME} {phase}\nTOKEN: {host_token}\n"),
        may_change=set(NAMES),
    )
    assert any(
        f"Approved the post for {GAME} {phase}" in prose_of(m) for m in approved.mail["host"]
    )


TRUSTED = "mx.trusted.example"


def results(verdict: str, domain: str) -> str:
    return f"Authentication-Results: {TRUSTED}; dmarc={verdict} header.from={domain}"


@pytest.mark.integration
def test_f087_the_hosts_mail_is_authenticated_like_a_players(make_site):
    """Threat: with sender authentication on, a mail from the host's address that failed
    DMARC, carrying the host token, published a post and answered a player as the host.
    The host's address is held to the same rule as the players': such a mail changes
    nothing, and the host is told why."""
    site = make_site()
    site.settings.write_text(
        site.settings.read_text().replace("[imap]", f"trusted_authserv_id = {TRUSTED}\n\n[imap]", 1)
    )
    assert site.cli("advance", GAME) == 0
    phase, domain = "T0-class", site.host.rpartition("@")[2]
    host_token = site.record()["host_token"]
    approval = f"APPROVE {GAME} {phase}\nTOKEN: {host_token}\n"
    answer = f"BEGIN MESSAGE {GAME} Alice\nTOKEN: {host_token}\nThe host says: you may skip a turn.\nEND MESSAGE\n"
    forged = [
        site.mail(site.host, body, headers=results("fail", domain)) for body in (approval, answer)
    ]
    forged.append(site.mail(site.host, approval))  # no results at all
    outcome = run(site, *forged, may_change=set(NAMES))
    assert outcome.mail["Alice"] == []
    assert len(outcome.mail["host"]) == 3
    assert all(
        "not accepted" in prose_of(m) and "whatever its token" in prose_of(m)
        for m in outcome.mail["host"]
    )
    assert [row["status"] for row in site.tables()["drafts"].values() if row["phase"] == phase] == [
        "draft"
    ]
    genuine = run(
        site, site.mail(site.host, approval, headers=results("pass", domain)), may_change=set(NAMES)
    )
    assert any(f"Approved the post for {GAME} {phase}" in prose_of(m) for m in genuine.mail["host"])


class Host(Ground):
    """The CLI's entry function in this process on a data folder of its own, and the order
    desk for sign-up mail (as `pbp poll` hands it a fetched mail)."""

    def __init__(self, root, capsys):
        super().__init__(root)
        self.capsys, self.number = capsys, 0
        self.write_settings({"pbp": {"data": self.data, "from_address": "pbp@games.example"}})

    def pbp(self, *arguments: str) -> tuple[int, str]:
        from pbp.cli import main

        self.capsys.readouterr()
        code = main([arguments[0], "--settings", str(self.settings), *arguments[1:]])
        captured = self.capsys.readouterr()
        return code, captured.out + captured.err

    def moderator(self):
        from pbp.composition import ComposedModerator
        from pbp.settings import load_settings

        return ComposedModerator(load_settings(str(self.settings)))

    def mail(self, sender: str, command: str) -> str:
        """One sign-up mail through the desk; the text of the reply it queued."""
        from pbp.desk import Desk
        from pbp.ports import InboundMail
        from pbp.mail.signup_words import find_signup

        self.number += 1
        from pbp.storage.open_games import outbox_files

        with self.moderator() as moderator:
            files = [moderator.folder.game(g) for g in moderator.folder.game_ids()]
            files += [file for _key, file in outbox_files(moderator.folder)]
            before = {id(f): len(f.outbox) for f in files}
            Desk(moderator).receive(
                InboundMail(
                    key=f"1:{self.number}",
                    sha256=f"{self.number:064d}",
                    sender=sender,
                    message_id=f"<w{self.number}@x.example>",
                    subject="watch",
                    commands=(find_signup(command, ""),),
                )
            )
            rows = [
                row
                for f in files
                for row in f.outbox.all()[before[id(f)] :]
                if row["address"] == sender
            ]
        return "\n".join(row["body"] for row in rows)


@pytest.fixture
def host(tmp_path, capsys):
    return Host(tmp_path, capsys)


def test_f088_a_substitute_who_watched_is_never_dealt_in(host):
    """Threat: a signed-up substitute mailed WATCH for the running game, read every role
    and night action, and was then handed a character by `substitute --next` without a
    word. Confirming WATCH takes the address off the substitutes' list (the reply says
    so); `--next` skips anyone who watches and tells the host; a watcher is refused as a
    named newcomer too."""
    import re

    from engine.seat_names import player_names
    from pbp.storage.open_games import open_game

    assert (
        host.pbp(
            "open-game",
            "ww3",
            "--ruleset",
            "werewolf",
            "--players",
            "8..8",
            "--closes",
            "3d",
            "--option",
            "spectators=all",
        )[0]
        == 0
    )
    names = player_names(11)
    address = {name: f"{name.lower()}@x.example" for name in names}
    with host.moderator() as moderator:
        signups = open_game(moderator.folder, "ww3")
        with signups.file.transaction():
            signups.file.update_record(
                {
                    "entries": [
                        {"name": n, "email": address[n], "joined": "2030-01-01T00:00:00Z"}
                        for n in names
                    ]
                }
            )
    assert host.pbp("start", "ww3", "--no-send")[0] == 0
    watcher, late_watcher = names[8], names[9]
    request = host.mail(address[watcher], "WATCH ww3")
    assert "substitutes' list" in request
    code = re.search(r"CONFIRM ww3 (\w+)", request).group(1)
    confirmed = host.mail(address[watcher], f"CONFIRM ww3 {code}")
    assert (
        "After each resolution of ww3" in confirmed
        and "no longer on the substitutes' list" in confirmed
    )
    with (
        host.moderator() as moderator
    ):  # a watcher still listed (as a game from before this rule holds)
        record = moderator.folder.game("ww3").record()
        with moderator.folder.game("ww3").transaction():
            moderator.folder.game("ww3").update_record(
                {"watchers": [*record["watchers"], address[late_watcher]]}
            )
    done, said = host.pbp("substitute", "ww3", names[0], "--next", "--no-send")
    assert done == 0 and f"{names[10]} now plays {names[0]}" in said
    assert f"skipped {late_watcher} <{address[late_watcher]}>" in said and "they watch ww3" in said
    refused, why = host.pbp("substitute", "ww3", names[1], watcher, address[watcher], "--no-send")
    assert refused == 2 and "watches ww3" in why


@pytest.mark.integration
def test_f089_one_mail_cannot_relay_past_the_daily_cap_of_messages(make_site):
    """Threat: the daily cap of messages counted only what was stored before the mail, so
    one mail with five message blocks relayed five against a cap of three. A mail's own
    messages count as they are judged."""
    site = make_site(replies_per_day=3)
    token = site.token("Alice")
    body = "".join(
        f"BEGIN MESSAGE {GAME} host\nTOKEN: {token}\nQuestion {n} for the host.\nEND MESSAGE\n\n"
        for n in range(5)
    )
    outcome = run(site, site.mail(site.players["Alice"], body))
    questions = [m for m in outcome.mail["host"] if "Question" in prose_of(m)]
    assert len(questions) == 3
    (receipt,) = outcome.mail["Alice"]
    assert prose_of(receipt).count("the most one player may send in a day") == 2


def test_f090_look_alike_invisible_and_reserved_names_are_refused(host):
    """Threat: whole-script look-alikes passed the name rules (`Расо`, all Cyrillic, beside
    the Latin `Paco`; `AIice` with a capital I beside `Alice`), so did a name of two
    invisible Hangul fillers, and a player named `host` was shown as "the host to host"
    and dropped out of the host's unanswered questions. Names are compared by their
    Unicode confusable skeleton (UTS #39); invisible (default-ignorable) letters and the
    word `host` are refused; on sign-up as on the host's roster."""
    import re

    from engine import roster_problems

    assert (
        host.pbp(
            "open-game", "ww3", "--ruleset", "werewolf", "--players", "8..10", "--closes", "3d"
        )[0]
        == 0
    )
    code = re.search(r"CONFIRM ww3 (\w+)", host.mail("paco@x.example", "JOIN ww3 Paco")).group(1)
    assert "You are signed up for ww3 as Paco" in host.mail("paco@x.example", f"CONFIRM ww3 {code}")
    for name in ("Расо", "\u3164\u3164", "Host", "hOsT", "P\u200baco"):
        reply = host.mail(f"other{len(name)}@x.example", f"JOIN ww3 {name}")
        assert "cannot be used in ww3" in reply and "CONFIRM" not in reply, (name, reply)
    assert any("look alike" in p for p in roster_problems(["Alice", "AIice"]))
    assert any("look alike" in p for p in roster_problems(["Paco", "Расо"]))
    assert roster_problems(["Paco", "Иван", "José", "陈伟", "Mary_Ann"]) == []
    roster = host.root / "roster.csv"
    roster.write_text(
        "name,email\n"
        + "".join(
            f"{n},{n.lower()}@y.example\n"
            for n in ("Host", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
        )
    )
    refused, why = host.pbp(
        "new-game", "--ruleset", "werewolf", "--roster", str(roster), "--no-send"
    )
    assert refused == 2 and "'Host'" in why


def test_f091_forged_joins_push_out_no_one_and_stay_bounded(tmp_path):
    """Threat: 210 forged JOINs (each from another address) pushed out an honest sign-up
    awaiting its code, each added 1.7 kB to the open game for good, and pbp mailed every
    forged address. Requests awaiting a code are bounded per game (one per address) and
    expire after a day, and none is pushed out; answers to addresses a game does not know
    are capped per day, and mail past a bound is not answered and leaves the game's file
    as it was (it is counted with the unknown senders)."""
    import re

    from pbp.composition import ComposedModerator
    from pbp.desk import Desk
    from pbp.ports import InboundMail
    from pbp.settings import Settings
    from pbp.storage.open_games import open_game
    from pbp.signups.codes import MAX_PENDING, NEW_ADDRESS_ANSWERS_PER_DAY
    from pbp.signups.opening import open_for_signups
    from tests.fixtures.clocks import Clock

    clock = Clock()
    settings = Settings(
        data=tmp_path / "data", from_address="pbp@games.example", replies_per_sender_per_day=20
    )
    numbers = iter(range(1, 100_000))

    def join(moderator, sender: str, line: str) -> list[dict]:
        n = next(numbers)
        signups = open_game(moderator.folder, "ww3")
        before = len(signups.file.outbox)
        Desk(moderator).receive(
            InboundMail(
                key=f"1:{n}",
                sha256=f"{n:064d}",
                sender=sender,
                message_id=f"<j{n}@x.example>",
                subject="join",
                commands=(line,),
            )
        )
        return [row for row in signups.file.outbox.all()[before:] if row["address"] == sender]

    def size() -> int:
        return sum(path.stat().st_size for path in (tmp_path / "data" / "signups").glob("ww3.*"))

    with ComposedModerator(settings, clock=clock) as moderator:
        open_for_signups(moderator, "ww3", "werewolf", "8..10", "7d")
        (request,) = join(moderator, "alice@x.example", "JOIN ww3 Alice")
        code = re.search(r"CONFIRM ww3 (\w+)", request["body"]).group(1)
        answered = [
            join(moderator, f"forged{n}@victim{n}.example", f"JOIN ww3 Forged{n}")
            for n in range(210)
        ]
        assert sum(map(len, answered)) <= min(MAX_PENDING, NEW_ADDRESS_ANSWERS_PER_DAY)
        grown = size()
        for n in range(210, 400):
            assert join(moderator, f"forged{n}@victim{n}.example", f"JOIN ww3 Forged{n}") == []
        assert size() == grown  # past the bounds nothing is stored in the game's file
        assert len(open_game(moderator.folder, "ww3").record.pending) <= MAX_PENDING
        (signed_up,) = join(moderator, "alice@x.example", f"CONFIRM ww3 {code}")
        assert "You are signed up for ww3 as Alice" in signed_up["body"]
        clock.advance(days=1, minutes=1)  # a new day; the forged requests have expired
        (late,) = join(moderator, "bruno@x.example", "JOIN ww3 Bruno")
        assert "CONFIRM ww3" in late["body"]
        assert len(open_game(moderator.folder, "ww3").record.pending) == 1
