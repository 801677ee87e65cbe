"""The order desk (docs/design.md: Order mail format; Reliability rules — Identity, Loops),
fed real mail bytes through the mail side's parser, on the toy Ballot ruleset."""

from __future__ import annotations

import hashlib
from email.message import EmailMessage

import pytest

import pbp.storage.game_storage
from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.mail.ingest.inbound import parse_inbound
from pbp.ports import RawMail
from tests.fixtures.text import flat
from tests.fixtures.harness import ROSTER
from pbp.daemon.outbox_sending import send_due

OWN = ("pbp@games.example",)


@pytest.fixture
def game(moderator, sender):
    created = create_game(moderator, "ballot", ROSTER, seed="s")
    send_due(moderator.outbox, sender)
    sender.sent.clear()
    return created


@pytest.fixture
def desk(moderator, game):
    return Desk(moderator)


def mail(body: str, sender="Alice <alice@example.org>", key=None, **headers) -> RawMail:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "pbp@games.example"
    message["Subject"] = headers.pop("subject", "Re: [bal1] orders")
    message["Message-ID"] = headers.pop(
        "message_id", f"<{hashlib.sha1(body.encode()).hexdigest()}@example.org>"
    )
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body)
    data = message.as_bytes()
    sha = hashlib.sha256(data).hexdigest()
    return RawMail(key or sha[:12], data, sha)


def block(game, player="Alice", phase="D1-vote", orders=("VOTE Bruno",), token=None):
    token = token if token is not None else game.record.tokens[player]
    return "\n".join([f"BEGIN ORDERS {game.id} {phase}", f"TOKEN: {token}", *orders, "END ORDERS"])


def receive(desk, raw):
    return desk.receive(parse_inbound(raw, OWN, 1_000_000))


def replies(moderator, sender):
    send_due(moderator.outbox, sender)
    sent = list(sender.sent)
    sender.sent.clear()
    return sent


def orders_of(moderator, game, player="Alice", phase="D1-vote"):
    row = load(moderator, game.id).latest_orders(phase).get(player)
    return row.text if row else None


def test_accepted_block_gets_a_threaded_receipt_with_canonical_orders(
    moderator, sender, desk, game
):
    raw = mail(
        "Hi!\n\n" + block(game, orders=("vote:   Bruno",)) + "\n\n-- \nAlice",
        message_id="<m1@example.org>",
    )
    assert receive(desk, raw) == "processed"
    (reply,) = replies(moderator, sender)
    assert reply["To"] == "Alice <alice@example.org>"
    assert reply["In-Reply-To"] == "<m1@example.org>" and "<m1@example.org>" in reply["References"]
    assert reply["Auto-Submitted"] == "auto-replied"
    assert reply["Subject"] == "Re: [bal1] Orders received for D1-vote"
    assert "Accepted for D1-vote" in reply.get_content() and "  VOTE Bruno" in reply.get_content()
    assert orders_of(moderator, game) == "VOTE Bruno"


def test_later_orders_replace_earlier_ones(moderator, sender, desk, game):
    receive(desk, mail(block(game, orders=("VOTE Bruno",))))
    receive(desk, mail(block(game, orders=("VOTE Chloe",))))
    assert orders_of(moderator, game) == "VOTE Chloe"


def test_wrong_token_is_rejected_to_the_roster_address(moderator, sender, desk, game):
    assert receive(desk, mail(block(game, token="guessed123"))) == "rejected"
    (reply,) = replies(moderator, sender)
    assert reply["To"] == "Alice <alice@example.org>"
    assert "TOKEN is not your token" in flat(reply.get_content())
    assert orders_of(moderator, game) is None


def test_another_players_token_does_not_work(moderator, sender, desk, game):
    bruno_token = game.record.tokens["Bruno"]
    assert receive(desk, mail(block(game, token=bruno_token))) == "rejected"
    assert orders_of(moderator, game, "Bruno") is None and orders_of(moderator, game) is None


def test_unknown_sender_gets_no_reply_and_is_shown_to_the_host(moderator, sender, desk, game):
    from pbp.host.status import status_text

    assert receive(desk, mail(block(game), sender="Eve <eve@evil.example>")) == "rejected"
    assert replies(moderator, sender) == []
    assert "eve@evil.example" in status_text(moderator.folder) and "unknown sender" in status_text(
        moderator.folder
    )


def test_two_from_addresses_get_no_reply(moderator, sender, desk, game):
    raw = mail(block(game), sender="Alice <alice@example.org>, Bruno <bruno@example.org>")
    assert receive(desk, raw) == "rejected"
    assert replies(moderator, sender) == [] and orders_of(moderator, game) is None


def test_display_name_spoofing_does_not_make_an_identity(moderator, sender, desk, game):
    raw = mail(block(game), sender='"alice@example.org" <eve@evil.example>')
    assert receive(desk, raw) == "rejected"
    assert replies(moderator, sender) == [] and orders_of(moderator, game) is None


def test_reply_to_never_decides_where_answers_go(moderator, sender, desk, game):
    raw = mail(block(game), Reply_To="Eve <eve@evil.example>")
    assert receive(desk, raw) == "processed"
    (reply,) = replies(moderator, sender)
    assert reply["To"] == "Alice <alice@example.org>" and "eve" not in reply.as_string()


def test_closed_phase_is_rejected_with_the_reason(moderator, sender, desk, game):
    resolve_phase(moderator, game.id)
    replies(moderator, sender)
    assert receive(desk, mail(block(game, phase="D1-vote", orders=("VOTE Chloe",)))) == "rejected"
    (reply,) = replies(moderator, sender)
    text = " ".join(reply.get_content().split())
    assert "D1-vote is closed" in text and "BEGIN ORDERS bal1 D2-vote" in text
    assert (
        "the current phase is D2-vote, and its form is below" in text
    )  # a ruleset without phase words


def test_dead_player_is_rejected(moderator, sender, desk, game):
    resolve_phase(moderator, game.id)  # nobody voted: Dmitri (last alphabetically) is out
    replies(moderator, sender)
    raw = mail(block(game, "Dmitri", "D2-vote", ("VOTE Alice",)), sender="dmitri@example.org")
    assert receive(desk, raw) == "rejected"
    (reply,) = replies(moderator, sender)
    assert "you are dead" in reply.get_content()
    assert orders_of(moderator, game, "Dmitri", "D2-vote") is None


def test_an_error_on_line_3_is_reported_with_its_line_and_earlier_orders_stand(
    moderator, sender, desk, game
):
    receive(desk, mail(block(game, orders=("VOTE Bruno",))))
    replies(moderator, sender)
    assert receive(desk, mail(block(game, orders=("VOTE Zed",)))) == "rejected"
    (reply,) = replies(moderator, sender)
    text = reply.get_content()
    assert reply["Subject"] == "Re: [bal1] Orders NOT accepted for D1-vote"
    assert 'Line 3: "VOTE Zed"' in text
    assert (
        "Nothing from this mail was accepted; your earlier orders (received" in text
        and "still stand" in text
    )
    assert orders_of(moderator, game) == "VOTE Bruno"


def test_every_error_of_a_block_is_listed(moderator, sender, desk, game):
    receive(desk, mail(block(game, orders=("# thinking", "VOTE Zed", "SHOUT Bruno"))))
    text = replies(moderator, sender)[0].get_content()
    assert 'Line 4: "VOTE Zed"' in text and 'Line 5: "SHOUT Bruno"' in text


def test_text_outside_the_block_is_ignored(moderator, sender, desk, game):
    raw = mail("VOTE Chloe\nI think Chloe is shady.\n\n" + block(game) + "\nVOTE Dmitri\nCheers")
    assert receive(desk, raw) == "processed"
    assert orders_of(moderator, game) == "VOTE Bruno"


def test_a_quoted_form_with_orders_filled_in_is_accepted(moderator, sender, desk, game):
    quoted = "\n".join(
        "> " + line for line in block(game, orders=("# VOTE <player>", "VOTE Chloe")).splitlines()
    )
    assert receive(desk, mail("Here you go.\n\nOn Monday pbp wrote:\n" + quoted)) == "processed"
    assert orders_of(moderator, game) == "VOTE Chloe"


def test_a_quoted_form_with_nothing_filled_in_changes_nothing_and_is_answered(
    moderator, sender, desk, game
):
    receive(desk, mail(block(game, orders=("VOTE Bruno",))))
    replies(moderator, sender)
    quoted = "\n".join(
        "> " + line for line in block(game, orders=("# VOTE <player>",)).splitlines()
    )
    receive(desk, mail("When is the deadline?\n\n" + quoted))
    (reply,) = replies(moderator, sender)
    assert "no order filled in, so nothing changed" in flat(reply.get_content())
    assert orders_of(moderator, game) == "VOTE Bruno"


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto_Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"List_Id": "<players.example.org>"},
    ],
)
def test_machine_mail_gets_no_reply_and_changes_nothing(moderator, sender, desk, game, headers):
    assert receive(desk, mail(block(game), **headers)) == "rejected"
    assert replies(moderator, sender) == [] and orders_of(moderator, game) is None


def test_the_same_mail_twice_is_processed_once(moderator, sender, desk, game):
    raw = mail(block(game))
    assert receive(desk, raw) == "processed"
    again = RawMail("another-uid", raw.data, raw.sha256)
    assert desk.already_handled(again.key, again.sha256) == "processed"
    assert receive(desk, again) == "processed"
    assert len(replies(moderator, sender)) == 1
    assert len(moderator.folder.game(game.id).orders.all()) == 1


def test_one_mail_delivered_twice_with_its_own_trace_headers_is_processed_once(
    moderator, sender, desk, game
):
    """Two deliveries of one mail differ in their trace headers (Received, Delivered-To),
    so neither the server key nor the SHA-256 matches: the sender's Message-ID does."""
    raw = mail(block(game), message_id="<twice@example.org>")
    copy = (
        b"Received: from relay.example.org by mx.games.example; Tue, 1 Jan 2030 12:00:01 +0000\r\n"
        + raw.data
    )
    assert receive(desk, raw) == "processed"
    assert (
        receive(desk, RawMail("another-uid", copy, hashlib.sha256(copy).hexdigest())) == "processed"
    )
    assert len(replies(moderator, sender)) == 1
    assert len(moderator.folder.game(game.id).orders.all()) == 1


def test_a_message_id_reused_by_another_sender_is_judged_on_its_own(moderator, sender, desk, game):
    """A Message-ID identifies a mail only together with its sender: a stranger's mail that
    reuses one is still shown to the host, another player's still counts."""
    receive(desk, mail(block(game), message_id="<same@example.org>"))
    stranger = mail(
        "Hello", sender="Mallory <mallory@elsewhere.example>", message_id="<same@example.org>"
    )
    assert receive(desk, stranger) == "rejected"
    from pbp.storage.strangers import StrangerLog

    assert list(StrangerLog(moderator.folder).summary()["senders"]) == ["mallory@elsewhere.example"]
    bruno = mail(
        block(game, player="Bruno", orders=("VOTE Chloe",)),
        sender="Bruno <bruno@example.org>",
        message_id="<same@example.org>",
    )
    assert receive(desk, bruno) == "processed"
    assert orders_of(moderator, game, player="Bruno") == "VOTE Chloe"
    assert len(replies(moderator, sender)) == 2


def test_handled_mail_is_remembered_across_a_restart(moderator, sender, game):
    raw = mail(block(game))
    Desk(moderator).receive(parse_inbound(raw, OWN, 1_000_000))
    assert Desk(moderator).already_handled(raw.key, raw.sha256) == "processed"


def test_commands_help_form_status(moderator, sender, desk, game):
    receive(desk, mail("HELP"))
    receive(desk, mail("form please"))
    receive(desk, mail(block(game)))
    receive(desk, mail("STATUS"))
    help_reply, form_reply, _, status_reply = replies(moderator, sender)
    assert "How to send orders" in help_reply.get_content()
    assert "BEGIN ORDERS bal1 D1-vote" in form_reply.get_content()
    assert (
        "Your accepted orders" in status_reply.get_content()
        and "VOTE Bruno" in status_reply.get_content()
    )


@pytest.mark.parametrize("reply_cap", [5])
def test_replies_per_sender_per_day_are_capped(moderator, sender, desk, game, clock):
    for number in range(7):
        receive(desk, mail(f"HELP {number}"))
    assert len(replies(moderator, sender)) == 5
    clock.advance(days=1)
    receive(desk, mail("HELP again"))
    assert len(replies(moderator, sender)) == 1


def test_a_mail_that_breaks_the_engine_leaves_the_game_untouched(
    moderator, sender, desk, game, monkeypatch
):
    before = moderator.folder.game(game.id).path.read_bytes()
    from tests.fixtures.toy_ruleset import Ballot

    monkeypatch.setattr(Ballot, "parse_orders", lambda *a: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        receive(desk, mail(block(game)))
    assert moderator.folder.game(game.id).path.read_bytes() == before


def test_a_batch_whose_write_fails_leaves_its_mail_unhandled_for_the_next_try(
    moderator, desk, game, monkeypatch
):
    """The batch's durable write fails as its transactions end (the disk is full): none of
    its mail counts as handled, in this desk or a new one, so the next poll judges it again
    instead of moving it unrecorded."""
    raw = mail(block(game))

    def full(path, ops):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pbp.storage.game_storage, "store_texts", full)
    with pytest.raises(OSError, match="No space left"):
        with desk.batch():
            assert receive(desk, raw) == "processed"
    monkeypatch.undo()
    assert desk.already_handled(raw.key, raw.sha256) is None
    assert Desk(moderator).already_handled(raw.key, raw.sha256) is None
    assert receive(desk, raw) == "processed" and orders_of(moderator, game) == "VOTE Bruno"


def test_a_desk_made_ready_knows_who_plays_where_and_has_its_receipt_compiled(
    moderator, game, desk, sender
):
    """`get_ready`, run while a poll's mail is still being read in another process: the
    first mail judged then compiles no template."""
    desk.get_ready()
    compiled = dict(moderator.renderer.env.cache)
    assert {template.name for template in compiled.values()} >= {
        "mail/receipt.j2",
        "mail/_common.j2",
    }
    assert desk.games_of("alice@example.org") == [game.id]
    assert receive(desk, mail(block(game))) == "processed"
    assert dict(moderator.renderer.env.cache) == compiled
