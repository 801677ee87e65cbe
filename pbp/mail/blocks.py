"""Finding order blocks and message blocks in a mail's normalised text (docs/design.md:
Order mail format, Conversations).

    BEGIN ORDERS <game-id> <phase-id>          BEGIN MESSAGE <game-id> <channel>
    TOKEN: <the player's secret token>         TOKEN: <the player's secret token>
    <one order per line>                       <free text>
    END ORDERS                                 END MESSAGE

Keywords are case-insensitive. What a reply holds is read in two tiers:

- **The player's own blocks**: unquoted blocks, and forms filled in inside the quote: a
  block whose BEGIN and END lines are quoted at the same depth with the player's own
  unquoted lines between them (mail programs leave a line typed inside a quote unquoted).
  The quoted lines of such a block are pbp's form (its TOKEN, its `#` hints), the unquoted
  ones the player's orders.
- **Quoted blocks**, wholly under one quote depth: the form a player filled in by typing
  inside the quote marks. They count only when the mail has nothing in the first tier.

Quote depth comes from pbp.mail.quoting, which also pushes an Outlook-style copied mail one
level down. Lines outside every block are never read: the unquoted ones are kept (the first
`MAX_STRAY_LINES`) so that the desk can tell a player which order-like lines it did not take.
A mail is read up to `MAX_BLOCKS_PER_MAIL` blocks per tier; further BEGIN lines are only
counted (docs/design.md: Hostile input).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from engine.errors import Wording
from pbp.mail import limits
from pbp.mail.ingest.block_contents import TOKEN_LINE, make_block, make_message
from pbp.mail.limits import MAX_BLOCKS_PER_MAIL
from pbp.mail.quoting import QuotedLine, quote_lines
from pbp.ports import MessageBlock, OrderBlock

_BEGIN = re.compile(r"^BEGIN\s+(ORDERS|MESSAGE)\b(.*)$", re.IGNORECASE)
_END = {
    "ORDERS": re.compile(r"^END\s+ORDERS\s*$", re.IGNORECASE),
    "MESSAGE": re.compile(r"^END\s+MESSAGE\s*$", re.IGNORECASE),
}
_SIGNATURE = "--"  # the signature separator ("-- "; stripped like every line)
MAX_STRAY_LINES = 20  # unquoted lines outside blocks kept for the receipt's note on them


@dataclass(frozen=True)
class BlockScan:
    """The blocks and problems of one tier (the player's own, or quoted); `unread` counts
    the blocks beyond the per-mail cap, which were not read. `stray` holds the first
    unquoted lines written outside any block, `free_text` says there were some."""

    blocks: tuple[OrderBlock, ...] = ()
    problems: tuple[str | Wording, ...] = ()
    unread: int = 0
    messages: tuple[MessageBlock, ...] = ()
    free_text: bool = False
    stray: tuple[str, ...] = ()

    def __add__(self, other: "BlockScan") -> "BlockScan":
        return BlockScan(
            self.blocks + other.blocks,
            self.problems + other.problems,
            self.unread + other.unread,
            self.messages + other.messages,
            self.free_text or other.free_text,
            (self.stray + other.stray)[:MAX_STRAY_LINES],
        )

    @property
    def found_anything(self) -> bool:
        return bool(self.blocks or self.messages or self.problems or self.unread)

    @property
    def filled(self) -> bool:
        """Whether a block holds something the player wrote (an order, a message's text)."""
        return any(block.has_orders for block in self.blocks) or any(m.text for m in self.messages)

    @property
    def read(self) -> int:
        """Blocks read: each made an order block, a message block or a problem."""
        return len(self.blocks) + len(self.messages) + len(self.problems)

    def capped(self) -> "BlockScan":
        """At most `MAX_BLOCKS_PER_MAIL` blocks read (order blocks, then messages); the rest
        counted."""
        if self.read <= MAX_BLOCKS_PER_MAIL:
            return self
        blocks = self.blocks[:MAX_BLOCKS_PER_MAIL]
        messages = self.messages[: MAX_BLOCKS_PER_MAIL - len(blocks)]
        problems = self.problems[: MAX_BLOCKS_PER_MAIL - len(blocks) - len(messages)]
        kept = len(blocks) + len(messages) + len(problems)
        return BlockScan(
            blocks, problems, self.unread + self.read - kept, messages, self.free_text, self.stray
        )


def opens_a_form(line: str) -> bool:
    """A BEGIN line or a TOKEN line, quoted or not: where a form (and its secret) starts."""
    content = quote_lines(line)[0].content
    return bool(_BEGIN.match(content) or TOKEN_LINE.match(content))


class _Tier:
    """One tier's blocks as the scan finds them (made into a BlockScan once, at the end)."""

    def __init__(self) -> None:
        self.blocks: list[OrderBlock] = []
        self.messages: list[MessageBlock] = []
        self.problems: list[str | Wording] = []
        self.unread = 0

    def add(self, found: BlockScan) -> None:
        if len(self.blocks) + len(self.messages) + len(self.problems) >= MAX_BLOCKS_PER_MAIL:
            self.unread += 1
        else:
            self.blocks.extend(found.blocks)
            self.messages.extend(found.messages)
            self.problems.extend(found.problems)

    def scan(self, free_text: bool = False, stray: tuple[str, ...] = ()) -> BlockScan:
        return BlockScan(
            tuple(self.blocks),
            tuple(self.problems),
            self.unread,
            tuple(self.messages),
            free_text,
            stray,
        )


def scan_blocks(text: str) -> tuple[BlockScan, BlockScan]:
    """All blocks of a text, as (the player's own tier, the quoted tier); past the per-mail
    cap of a tier its further BEGIN lines are only counted."""
    lines = quote_lines(text)
    own, quoted = _Tier(), _Tier()
    stray: list[str] = []  # unquoted lines outside blocks (the first MAX_STRAY_LINES)
    free_text = False
    index = 0
    in_signature = False
    while index < len(lines):
        line = lines[index]
        begin = _BEGIN.match(line.content)
        if not begin:
            if line.depth == 0 and line.content and not in_signature:
                in_signature = line.content == _SIGNATURE
                if not in_signature and not _introduces_quote(lines, index):
                    free_text = True
                    if len(stray) < MAX_STRAY_LINES:
                        stray.append(line.content)
            index += 1
            continue
        read = _read_block(lines, index, begin.group(1).upper(), begin.group(2).split())
        (own if read.own else quoted).add(read.scan)
        index = read.next_index
    return own.scan(free_text, tuple(stray)), quoted.scan()


def _introduces_quote(lines: list[QuotedLine], index: int) -> bool:
    """The attribution line a mail client writes above the quoted mail ("On …, pbp wrote:"):
    a line ending in a colon whose next line with anything on it is quoted."""
    if not lines[index].content.endswith(":"):
        return False
    for following in range(index + 1, len(lines)):
        if lines[following].depth or lines[following].content:
            return lines[following].depth > 0
    return False


class _Read(NamedTuple):
    scan: BlockScan
    next_index: int
    own: bool  # the player's own block (unquoted, or filled in inside the quote)


def _read_block(
    lines: list[QuotedLine], begin_index: int, kind: str, arguments: list[str]
) -> _Read:
    """Read the block (`kind` ORDERS or MESSAGE) whose BEGIN line is `lines[begin_index]`.

    Lines at the BEGIN line's depth belong to it; so do unquoted lines inside a quoted
    block, when its END line is at the BEGIN line's depth (a form filled in inside the
    quote). A line at any other depth, or another BEGIN, ends the search for the END line;
    without it the block is a problem, whose reason says what was found instead."""
    depth = lines[begin_index].depth
    begin_text = lines[begin_index].content
    body: list[str] = []
    typed_inside = False  # an unquoted line of the player's inside a quoted block
    index = begin_index + 1
    while index < len(lines):
        line = lines[index]
        if line.depth != depth and not (depth and line.depth == 0):
            break
        if line.depth == depth and _END[kind].match(line.content):
            quoted = bool(depth) and not typed_inside
            made = (
                make_block(begin_text, arguments, body, quoted, at_line=begin_index + 1)
                if kind == "ORDERS"
                else make_message(begin_text, arguments, body, quoted)
            )
            return _Read(_scan_of(made), index + 1, own=depth == 0 or typed_inside)
        if _BEGIN.match(line.content):
            break
        typed_inside = typed_inside or (line.depth != depth and bool(line.content))
        body.append(line.content)
        index += 1
    problem = _unreadable(lines, begin_index, index, kind)
    # The block's own lines end where its depth does; the lines after them are read again.
    end = begin_index + 1
    while end < len(lines) and lines[end].depth == depth and not _BEGIN.match(lines[end].content):
        end += 1
    return _Read(BlockScan(problems=(problem,)), end, own=depth == 0)


def _scan_of(made: OrderBlock | MessageBlock | Wording) -> BlockScan:
    """A read block as a tier's scan: an order block, a message block or its problem."""
    if isinstance(made, Wording):
        return BlockScan(problems=(made,))
    if isinstance(made, OrderBlock):
        return BlockScan(blocks=(made,))
    return BlockScan(messages=(made,))


def _unreadable(lines: list[QuotedLine], begin_index: int, stop: int, kind: str) -> Wording:
    """Why the block starting at `begin_index` could not be read, as it is: no END line, an
    END line quoted at another depth, or lines quoted at another depth inside it."""
    begin_text = limits.quoted(lines[begin_index].content)
    depth = lines[begin_index].depth
    next_begin = next(
        (i for i in range(begin_index + 1, len(lines)) if _BEGIN.match(lines[i].content)),
        len(lines),
    )
    end = next(
        (i for i in range(begin_index + 1, next_begin) if _END[kind].match(lines[i].content)), None
    )
    if end is None:
        if kind == "ORDERS":
            return Wording(
                'The block starting "%(begin)s" has no END ORDERS line; put END ORDERS on its own'
                " line after your last order and send it again.",
                {"begin": begin_text},
            )
        return Wording(
            'The block starting "%(begin)s" has no END %(kind)s line; put END %(kind)s on its'
            " own line after your last line of your message and send it again.",
            {"begin": begin_text, "kind": kind},
        )
    if lines[end].depth != depth:
        return Wording(
            'The block starting "%(begin)s" (line %(line)s of your mail) ends with an END'
            " %(kind)s line quoted differently (line %(end)s), so pbp cannot tell your lines"
            " from the quoted ones; write the whole block again without quote marks (>) and"
            " send it.",
            {"begin": begin_text, "line": begin_index + 1, "kind": kind, "end": end + 1},
        )
    return Wording(
        'The block starting "%(begin)s" (line %(line)s of your mail) has a line quoted at'
        " another depth inside it (line %(stop)s), so pbp cannot tell your lines from the"
        " quoted ones; write the whole block again without quote marks (>) and send it.",
        {"begin": begin_text, "line": begin_index + 1, "stop": stop + 1},
    )


def find_blocks(texts: list[str]) -> BlockScan:
    """The blocks a mail submits: the player's own blocks in its texts, or, when there is
    none (and no problem with one), the quoted ones (docs/design.md: Order mail format)."""
    own, in_quotes = BlockScan(), BlockScan()
    for text in texts:
        text_own, text_quoted = scan_blocks(text)
        own += text_own
        in_quotes += text_quoted
    scan = (own if own.found_anything else in_quotes).capped()
    if own.free_text:
        scan = BlockScan(scan.blocks, scan.problems, scan.unread, scan.messages, True, own.stray)
    if not scan.unread:
        return scan
    problem = Wording(
        "This mail holds %(blocks)s order blocks; one mail may carry at most %(most)s, so the"
        " other %(unread)s were not read.",
        {
            "blocks": format(scan.read + scan.unread, ","),
            "most": MAX_BLOCKS_PER_MAIL,
            "unread": format(scan.unread, ","),
        },
    )
    return BlockScan(
        scan.blocks,
        scan.problems + (problem,),
        scan.unread,
        scan.messages,
        scan.free_text,
        scan.stray,
    )
