"""What one block holds, once the block reader (pbp.mail.blocks) has found its BEGIN and
END lines: an order block or a message block from its BEGIN line's words and its body,
with the TOKEN line read out of it, or the problem that kept it from being read
(docs/design.md: Order mail format, Conversations).
"""

from __future__ import annotations

import re

from engine.errors import Wording
from engine.names import plain_word
from pbp.mail import limits
from pbp.ports import MessageBlock, OrderBlock

TOKEN_LINE = re.compile(r"^TOKEN\s*:\s*(.*)$", re.IGNORECASE)


def _token_problem(begin_text: str, body: list[str]) -> Wording | None:
    token_lines = sum(1 for content in body if TOKEN_LINE.match(content))
    if token_lines <= 1:
        return None
    return Wording(
        'The block starting "%(begin)s" has %(count)s TOKEN lines; a block has exactly one, the'
        " one from your order form, so nothing in it was read. Send it again with one TOKEN"
        " line.",
        {"begin": limits.quoted(begin_text), "count": format(token_lines, ",")},
    )


def make_message(
    begin_text: str, arguments: list[str], body: list[str], quoted: bool
) -> MessageBlock | Wording:
    """The message block of a MESSAGE block's BEGIN words and body, or why it is not one."""
    if len(arguments) not in (2, 3):  # a third word: the NPC the host writes as
        return Wording(
            'The line "%(begin)s" must name the game and the channel, like BEGIN MESSAGE'
            " <game-id> <channel>; copy it from the message form at the end of a mail.",
            {"begin": limits.quoted(begin_text)},
        )
    too_many = _token_problem(begin_text, body)
    if too_many:
        return too_many
    token, token_line = _find_token(body)
    text_lines = [
        line
        for line in body[token_line + 1 if token_line is not None else 0 :]
        if not line.startswith("#")
    ]
    game, channel, *speaker = arguments
    message = MessageBlock(
        game=game,
        channel=channel.lower(),
        token=token,
        text="\n".join(text_lines).strip("\n"),
        quoted=quoted,
        speaker="".join(speaker),
    )
    return message


def make_block(
    begin_text: str, arguments: list[str], body: list[str], quoted: bool, at_line: int
) -> OrderBlock | Wording:
    """The order block of an ORDERS block's BEGIN words and body, or why it is not one."""
    if len(arguments) != 2:
        return Wording(
            'The line "%(begin)s" must name the game and the phase, like BEGIN ORDERS'
            " <game-id> <phase-id>; copy it from your order form.",
            {"begin": limits.quoted(begin_text)},
        )
    game, phase = arguments
    too_many = _token_problem(begin_text, body)
    if too_many:
        return too_many
    token, token_line = _find_token(body)
    # Order lines follow the TOKEN line (or BEGIN when there is none); BEGIN is line 1.
    first_order_index = token_line + 1 if token_line is not None else 0
    block = OrderBlock(
        game=game,
        phase=phase,
        token=token,
        lines=tuple(body[first_order_index:]),
        first_line_number=first_order_index + 2,
        quoted=quoted,
        at_line=at_line,
    )
    return block


def _find_token(body: list[str]) -> tuple[str | None, int | None]:
    """The token of the first non-blank line after BEGIN, when that line is `TOKEN: …`
    (the token without the `*` or `_` a rich-text client may wrap it in)."""
    for index, content in enumerate(body):
        if not content:
            continue
        match = TOKEN_LINE.match(content)
        if match:
            token = plain_word(match.group(1))
            return (token or None), index
        return None, None
    return None, None
