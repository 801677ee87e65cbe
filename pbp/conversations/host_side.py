"""The host's side of the conversations (docs/design.md: Conversations): answering a
player's message to the host (`pbp reply`, or replying to the relay mail with the host
token) and writing as an NPC the host plays (`pbp channel … --as`, or replying to the NPC's
copy). Every mail goes through the outbox in the write that stores the message."""

from __future__ import annotations

from typing import Callable

from engine.errors import Wording
from pbp.conversations.channels import HOST, channels_of, is_npc, log_message
from pbp.conversations.judge import Delivery
from pbp.conversations.picks import current_picks
from pbp.conversations.relay import KIND, deliver, thread_id
from pbp.errors import UserError
from pbp.game.notifying.host_contact import answer_host, tell_host_of_wrong_tokens
from pbp.game.stored import StoredGame, load, running
from pbp.mail.limits import MAX_MESSAGE_CHARS
from pbp.storage.mail_ledger import MailLedger
from pbp.moderator import Moderator
from pbp.ports import InboundMail, MessageBlock, Outcome
from pbp.render.verdicts import Accepted, Refused, Verdict, error_facts
from pbp.timezones import render_timestamp, to_text
from pbp.game.judging.token_guard import TokenGuard
from pbp.storage.host_token import host_token


def _checked_text(text: str) -> str:
    text = text.strip("\n")
    if not text.strip():
        raise UserError.of("The message is empty; write its text.")
    if len(text) > MAX_MESSAGE_CHARS:
        raise UserError.of(
            "The message is %(length)s characters long; a message may hold at most "
            "%(most)s. Shorten it or split it.",
            length=format(len(text), ","),
            most=format(MAX_MESSAGE_CHARS, ","),
        )
    return text


def answer(moderator: Moderator, game: StoredGame, player: str, text: str) -> str:
    """The host answers `player` (call inside the game's transaction); returns the
    character's name as stored."""
    name = game.character(player)
    if is_npc(game, name):
        raise UserError.of("%(name)s is an NPC you play; there is nobody to answer.", name=name)
    text = _checked_text(text)
    phase = game.filed_phase
    received = to_text(moderator.clock())
    log_message(
        game.file,
        {
            "channel": HOST,
            "phase": phase,
            "sender": HOST,
            "player": name,
            "text": text,
            "received": received,
            "recipients": [name],
            "cause": "",
        },
    )
    thread = thread_id(game.id, f"host-{name}", phase, moderator.outbox.domain)
    mail = game.renderer_of(moderator, name).render(
        "host_answer",
        game.record.ruleset,
        game=game.game_facts(),
        phase=phase,
        player=name,
        text=text,
        received=render_timestamp(received),
        form=game.form(name),
        token=game.token(name),
    )
    moderator.outbox.queue(
        game.file,
        phase=phase,
        recipient=name,
        address=game.roster.of(name).email,
        kind=KIND,
        mail=mail,
        in_reply_to=thread,
        references=[thread],
    )
    return name


def speak_as(moderator: Moderator, game: StoredGame, npc: str, channel: str, text: str) -> str:
    """The host writes to `channel` as the NPC `npc` (call inside the game's transaction)."""
    name = game.character(npc)
    if not is_npc(game, name):
        raise UserError.of(
            "%(name)s is a player, not an NPC; the host writes only as the NPCs it plays.",
            name=name,
        )
    own = channels_of(game, name)
    if channel not in own:
        raise UserError.of(
            "%(name)s is not in a channel called %(channel)r now (their channels: %(own)s).",
            name=name,
            channel=channel,
            own=", ".join(own) or Wording("none"),
        )
    text = _checked_text(text)
    received = to_text(moderator.clock())
    deliver(moderator, game, Delivery(name, channel, text, received, current_picks(game, channel)))
    return name


def reply_command(moderator: Moderator, game_id: str, player: str, text: str) -> str:
    game = load(moderator, game_id)
    with game.file.transaction():
        name = answer(moderator, game, player, text)
    return name


def speak_command(moderator: Moderator, game_id: str, npc: str, channel: str, text: str) -> str:
    game = running(moderator, game_id)
    with game.file.transaction():
        name = speak_as(moderator, game, npc, channel.lower(), text)
    return name


def host_messages(
    moderator: Moderator,
    ledger: MailLedger,
    mail: InboundMail,
    may_reply: Callable[[StoredGame, str], bool],
) -> Outcome:
    """A mail from the host's address holding message blocks: each block, with the game's
    host token, answers a player (`BEGIN MESSAGE <game> <player>`) or writes as an NPC
    (`BEGIN MESSAGE <game> <channel> <npc>`). The host gets one receipt."""
    folder = moderator.folder
    games = folder.game_ids()
    target = next((m.game for m in mail.messages if m.game in games), None)
    if target is None:
        return ledger.record_refused(mail, "host message for no game")
    game = load(moderator, target)
    host = moderator.settings.host_address
    with game.file.transaction():
        guard = TokenGuard(
            game.file,
            host,
            moderator.clock().date(),
            moderator.settings.wrong_tokens_per_sender_per_day,
        )
        verdicts = [_host_block(moderator, game, guard, block) for block in mail.messages]
        outcome: Outcome = (
            "processed" if any(isinstance(v, Accepted) for v in verdicts) else "rejected"
        )
        guard.save(game.file)
        if guard.newly_over_limit:
            tell_host_of_wrong_tokens(moderator, game, guard)
        # wrong host tokens past the limit: no answer
        answer_host(
            moderator, game, mail, "host-reply", [] if guard.unanswered else verdicts, may_reply
        )
        row = ledger.record(game.file, mail, outcome, f"host messages: {len(verdicts)}")
    ledger.remember(row)
    return outcome


def _host_block(
    moderator: Moderator, game: StoredGame, guard: TokenGuard, block: MessageBlock
) -> Verdict:
    about = {"block_game": block.game, "channel": block.channel}
    if block.game != game.id:
        return Refused("host_message_other_game", game_id=game.id, **about)
    if (block.token or "").strip() != host_token(game.file):
        guard.note_wrong()
        return Refused("host_message_wrong_token", **about)
    guard.note_right()
    if not block.text.strip():
        return Refused("host_message_empty", **about)
    try:
        if block.speaker:
            name = speak_as(moderator, game, block.speaker, block.channel, block.text)
            return Accepted("host_message_sent", as_npc=True, name=name, channel=block.channel)
        name = answer(moderator, game, block.channel, block.text)
        return Accepted("host_message_sent", as_npc=False, name=name, channel=block.channel)
    except UserError as error:
        return Refused("host_message_refused", **error_facts(error), **about)
