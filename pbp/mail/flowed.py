"""Decoding `format=flowed` text (RFC 3676), as Thunderbird, Apple Mail and webmails such
as Horde send it (docs/design.md: Order mail format — replies as real clients send them).

A flowed line that ends in a space is soft-broken: the mail program wrapped it, and the
reader joins it to the next line of the same quote depth. Quote depth is the run of `>` at
the start of a line (no spaces between them); one space after it, or at the start of an
unquoted line, is stuffing added by the sender and removed here. With `DelSp=yes` the
space before a soft break was added by the sender too, and goes. The signature separator
`-- ` is never a soft break. A soft-broken line followed by a line of another depth is
ended there (RFC 3676, 4.5: the sender broke its own rule).

The output is plain text with each line's quote depth written back as `> ` per level, the
shape the block reader (pbp.mail.blocks) reads. No maintained library does this (the one
on PyPI, formatflowed, had its last release in 2016), and the decoder is short.
"""

from __future__ import annotations

_SIGNATURE = "-- "


def _depth_and_text(line: str) -> tuple[int, str]:
    depth = len(line) - len(line.lstrip(">"))
    text = line[depth:]
    if text.startswith(" "):  # space-stuffing (RFC 3676, 4.4)
        text = text[1:]
    return depth, text


def _prefixed(depth: int, text: str) -> str:
    return f"{'> ' * depth}{text}" if depth else text


def decode_flowed(text: str, delsp: bool = False) -> str:
    """`text` (any line ends) with its soft breaks joined and its stuffing removed."""
    out: list[str] = []
    pending: list[str] = []  # the pieces of a paragraph still being joined
    pending_depth = 0
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        depth, piece = _depth_and_text(raw)
        if pending and depth != pending_depth:
            out.append(_prefixed(pending_depth, "".join(pending)))
            pending = []
        flowed = piece.endswith(" ") and piece != _SIGNATURE
        if flowed and delsp:
            piece = piece[:-1]
        pending.append(piece)
        pending_depth = depth
        if not flowed:
            out.append(_prefixed(depth, "".join(pending)))
            pending = []
    if pending:
        out.append(_prefixed(pending_depth, "".join(pending)))
    return "\n".join(out)
