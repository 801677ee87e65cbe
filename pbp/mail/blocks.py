"""Finding order blocks and player commands in a mail's normalised text
(docs/design.md: Order mail format).

    BEGIN ORDERS <game-id> <phase-id>
    TOKEN: <the player's secret token>
    <one order per line>
    END ORDERS

Message blocks (docs/design.md: Conversations) are read by the same scanner, with the same
quote and cap rules:

    BEGIN MESSAGE <game-id> <channel>
    TOKEN: <the player's secret token>
    <free text>
    END MESSAGE

Everything outside a block is ignored (the scan only notes that there was some). Keywords are case-insensitive. A block is either
unquoted or lies wholly under one quote depth (`> `, `>> `, `> > `…); mail clients quote
the form a player replies to, so quoted blocks are only a fallback used when the mail has
no unquoted block.

One mail is read up to `MAX_BLOCKS_PER_MAIL` blocks (docs/design.md: Hostile input);
further blocks are only counted, and the count is one problem of the reply.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from engine.names import plain_word
from pbp import limits
from pbp.limits import MAX_BLOCKS_PER_MAIL
from pbp.ports import MessageBlock, OrderBlock

_QUOTE_PREFIX = re.compile(r"^(?:[ \t]*>)+[ \t]?")
_BEGIN = re.compile(r"^BEGIN\s+(ORDERS|MESSAGE)\b(.*)$", re.IGNORECASE)
_TOKEN = re.compile(r"^TOKEN\s*:\s*(.*)$", re.IGNORECASE)
_END = {"ORDERS": re.compile(r"^END\s+ORDERS\s*$", re.IGNORECASE),
        "MESSAGE": re.compile(r"^END\s+MESSAGE\s*$", re.IGNORECASE)}
_SIGNATURE = "--"  # the signature separator ("-- "; stripped like every line)
_APPROVE = re.compile(r"^APPROVE\s+(\S+)\s+(\S+)(?:\s+(\S+))?\s*$", re.IGNORECASE)
_COMMAND_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_SUBJECT_PREFIX = re.compile(r"^\s*((re|aw|sv|fwd?|tr|wg)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)


class QuotedLine(NamedTuple):
    """One line of text split into its quote depth (number of `>`) and its content (a
    tuple: every line of every mail becomes one, and a frozen dataclass is slow to make)."""

    depth: int
    content: str


@dataclass(frozen=True)
class BlockScan:
    """The blocks and problems of one quote tier (unquoted, or quoted); `unread` counts
    the blocks beyond the per-mail cap, which were not read."""

    blocks: tuple[OrderBlock, ...] = ()
    problems: tuple[str, ...] = ()
    unread: int = 0
    messages: tuple[MessageBlock, ...] = ()
    free_text: bool = False  # unquoted text outside any block (never read)

    def __add__(self, other: "BlockScan") -> "BlockScan":
        return BlockScan(self.blocks + other.blocks, self.problems + other.problems, self.unread + other.unread,
                         self.messages + other.messages, self.free_text or other.free_text)

    @property
    def found_anything(self) -> bool:
        return bool(self.blocks or self.messages or self.problems or self.unread)

    @property
    def read(self) -> int:
        """Blocks read: each made an order block, a message block or a problem."""
        return len(self.blocks) + len(self.messages) + len(self.problems)

    def capped(self) -> "BlockScan":
        """At most `MAX_BLOCKS_PER_MAIL` blocks read (order blocks, then messages); the rest counted."""
        if self.read <= MAX_BLOCKS_PER_MAIL:
            return self
        blocks = self.blocks[:MAX_BLOCKS_PER_MAIL]
        messages = self.messages[:MAX_BLOCKS_PER_MAIL - len(blocks)]
        problems = self.problems[:MAX_BLOCKS_PER_MAIL - len(blocks) - len(messages)]
        kept = len(blocks) + len(messages) + len(problems)
        return BlockScan(blocks, problems, self.unread + self.read - kept, messages, self.free_text)


def split_quote(line: str) -> QuotedLine:
    if ">" not in line:  # most lines: no quote prefix to look for
        return QuotedLine(0, line.strip())
    match = _QUOTE_PREFIX.match(line)
    if not match:
        return QuotedLine(0, line.strip())
    return QuotedLine(match.group(0).count(">"), line[match.end():].strip())


def opens_a_form(line: str) -> bool:
    """A BEGIN line or a TOKEN line, quoted or not: where a form (and its secret) starts."""
    content = split_quote(line).content
    return bool(_BEGIN.match(content) or _TOKEN.match(content))


def scan_blocks(text: str) -> tuple[BlockScan, BlockScan]:
    """All blocks of a text, as (unquoted tier, quoted tier); past the per-mail cap of a
    tier its further BEGIN lines are only counted."""
    lines = [split_quote(line) for line in text.split("\n")]
    tiers = [BlockScan(), BlockScan()]  # unquoted, quoted
    index = 0
    in_signature = False
    while index < len(lines):
        line = lines[index]
        begin = _BEGIN.match(line.content)
        if not begin:
            if line.depth == 0 and line.content and not in_signature and not tiers[0].free_text:
                in_signature = line.content == _SIGNATURE
                if not in_signature and not _introduces_quote(lines, index):
                    tiers[0] += BlockScan(free_text=True)
            index += 1
            continue
        tier = 0 if line.depth == 0 else 1
        if tiers[tier].read >= MAX_BLOCKS_PER_MAIL:
            tiers[tier] += BlockScan(unread=1)
            index += 1
            continue
        scan, index = _read_block(lines, index, begin.group(1).upper(), begin.group(2).split())
        tiers[tier] += scan
    return tiers[0], tiers[1]


def _introduces_quote(lines: list[QuotedLine], index: int) -> bool:
    """The attribution line a mail client writes above the quoted mail ("On …, pbp wrote:")."""
    if not lines[index].content.endswith(":"):
        return False
    following = next((line for line in lines[index + 1:] if line.depth or line.content), None)
    return following is not None and following.depth > 0


def _read_block(lines: list[QuotedLine], begin_index: int, kind: str,
                arguments: list[str]) -> tuple[BlockScan, int]:
    """Read the block (`kind` ORDERS or MESSAGE) whose BEGIN line is `lines[begin_index]`;
    return it and the index of the first line after it. Lines of another quote depth end
    the block (unterminated)."""
    depth = lines[begin_index].depth
    begin_text = lines[begin_index].content
    body: list[str] = []
    index = begin_index + 1
    while index < len(lines) and lines[index].depth == depth:
        content = lines[index].content
        if _END[kind].match(content):
            make = _make_block if kind == "ORDERS" else _make_message
            return make(begin_text, arguments, body, depth), index + 1
        if _BEGIN.match(content):
            break
        body.append(content)
        index += 1
    last = "order" if kind == "ORDERS" else "line of your message"
    problem = (
        f'The block starting "{limits.quoted(begin_text)}" has no END {kind} line; '
        f"put END {kind} on its own line after your last {last} and send it again."
    )
    return BlockScan(problems=(problem,)), index


def _token_problem(begin_text: str, body: list[str]) -> str | None:
    token_lines = sum(1 for content in body if _TOKEN.match(content))
    if token_lines <= 1:
        return None
    return (f'The block starting "{limits.quoted(begin_text)}" has {token_lines:,} TOKEN lines; a block has exactly '
            "one, the one from your order form, so nothing in it was read. Send it again with one TOKEN line.")


def _make_message(begin_text: str, arguments: list[str], body: list[str], depth: int) -> BlockScan:
    if len(arguments) not in (2, 3):  # a third word: the NPC the host writes as
        problem = (
            f'The line "{limits.quoted(begin_text)}" must name the game and the channel, '
            "like BEGIN MESSAGE <game-id> <channel>; copy it from the message form at the end of a mail."
        )
        return BlockScan(problems=(problem,))
    too_many = _token_problem(begin_text, body)
    if too_many:
        return BlockScan(problems=(too_many,))
    token, token_line = _find_token(body)
    text_lines = [line for line in body[token_line + 1 if token_line is not None else 0:]
                  if not line.startswith("#")]
    game, channel, *speaker = arguments
    message = MessageBlock(game=game, channel=channel.lower(), token=token,
                           text="\n".join(text_lines).strip("\n"), quoted=depth > 0, speaker="".join(speaker))
    return BlockScan(messages=(message,))


def _make_block(begin_text: str, arguments: list[str], body: list[str], depth: int) -> BlockScan:
    if len(arguments) != 2:
        problem = (
            f'The line "{limits.quoted(begin_text)}" must name the game and the phase, '
            "like BEGIN ORDERS <game-id> <phase-id>; copy it from your order form."
        )
        return BlockScan(problems=(problem,))
    game, phase = arguments
    too_many = _token_problem(begin_text, body)
    if too_many:
        return BlockScan(problems=(too_many,))
    token, token_line = _find_token(body)
    # Order lines follow the TOKEN line (or BEGIN when there is none); BEGIN is line 1.
    first_order_index = token_line + 1 if token_line is not None else 0
    block = OrderBlock(
        game=game,
        phase=phase,
        token=token,
        lines=tuple(body[first_order_index:]),
        first_line_number=first_order_index + 2,
        quoted=depth > 0,
    )
    return BlockScan(blocks=(block,))


def _find_token(body: list[str]) -> tuple[str | None, int | None]:
    """The token of the first non-blank line after BEGIN, when that line is `TOKEN: …`
    (the token without the `*` or `_` a rich-text client may wrap it in)."""
    for index, content in enumerate(body):
        if not content:
            continue
        match = _TOKEN.match(content)
        if match:
            token = plain_word(match.group(1))
            return (token or None), index
        return None, None
    return None, None


def find_blocks(texts: list[str]) -> BlockScan:
    """The blocks a mail submits: every unquoted block of its texts, or, when there is
    none (and no unquoted problem), the quoted ones (docs/design.md: Order mail format)."""
    unquoted, in_quotes = BlockScan(), BlockScan()
    for text in texts:
        text_unquoted, text_quoted = scan_blocks(text)
        unquoted += text_unquoted
        in_quotes += text_quoted
    scan = (unquoted if unquoted.found_anything else in_quotes).capped()
    if unquoted.free_text and not scan.free_text:
        scan = scan + BlockScan(free_text=True)
    if not scan.unread:
        return scan
    problem = (f"This mail holds {scan.read + scan.unread:,} order blocks; one mail may carry at most "
               f"{MAX_BLOCKS_PER_MAIL}, so the other {scan.unread:,} were not read.")
    return BlockScan(scan.blocks, scan.problems + (problem,), scan.unread, scan.messages, scan.free_text)


def find_command(body: str, subject: str) -> str | None:
    """A player command (docs/design.md: Order mail format — HELP, FORM, STATUS, and the host's
    `APPROVE <game> <phase>`): the first non-empty unquoted line of the body, or the
    subject when the body has none. Returns the upper-cased word (unknown words too, so
    the desk can answer with HELP), or None when there is nothing at all."""
    for line in body.split("\n"):
        quoted = split_quote(line)
        if quoted.depth == 0 and quoted.content:
            return _command_of(quoted.content)
        if quoted.depth > 0:
            # The first quoted text starts the quoted reply: nothing the player wrote follows.
            break
    subject_text = _SUBJECT_PREFIX.sub("", subject).strip()
    return _command_of(subject_text) if subject_text else None


def _command_of(line: str) -> str | None:
    approve = _APPROVE.match(line)
    if approve:
        return " ".join(["APPROVE", *(part for part in approve.groups() if part)])
    word = _COMMAND_WORD.match(line)
    if word:
        return word.group(0).upper()
    first = line.split()[0] if line.split() else ""
    return first.upper() or None


def find_approval(body: str) -> str | None:
    """The host's `APPROVE <game> <phase>` (docs/design.md: Public posts; "approve it by replying `APPROVE <game>
    <phase>` with the host token"): the first such unquoted line anywhere in the body, as
    `APPROVE <game> <phase> <token>`. The token is the line's third word, else the value of
    the first unquoted `TOKEN:` line; without either it is `APPROVE <game> <phase>`.
    Quoted text is the mail being replied to, never the host's own words."""
    if "approve" not in body.lower():
        return None  # the common case, without a look at every line
    approval, token = None, None
    for line in body.split("\n"):
        quoted = split_quote(line)
        if quoted.depth:
            continue
        match = _APPROVE.match(quoted.content)
        if match and approval is None:
            approval = match
        token_line = _TOKEN.match(quoted.content)
        if token_line and token is None and token_line.group(1).strip():
            token = token_line.group(1).strip()
    if approval is None:
        return None
    game, phase, inline = approval.groups()
    named: str | None = inline or token
    return " ".join(["APPROVE", game, phase, *([named] if named else [])])
