"""Prose a template holds outside a translatable string (docs/design.md: Catalog checks).

A template is read with Jinja's own lexer. Translatable are: the text of a `{% trans %}`
block, and a string given straight as an argument to `_`, `gettext`, `ngettext`,
`pgettext` or `npgettext`. Everything else Jinja owns (tags, expressions, comments) is
not template text. What is left is the template's own text, and it holds prose when:

- a word of two or more letters appears in it (a word: letters with at most an inner
  apostrophe or hyphen, between spaces or punctuation), outside these layout tokens:
  the `Subject:` header that starts a mail (and a reply's `Re:`), a block's BEGIN and
  END lines, a phase's id in the rules' notation (`Dn-vote`), the name pbp, a word in capitals (TOKEN, an order keyword
  such as VOTE or BEGIN, which the cards give in each language), markup (HTML tags and
  entities, bbcode tags such as [b] or [url=…], markdown's signs), an address (a chunk with
  `/`, `@`, `.` or `_` inside, such as a URL or a file name);
- or a string literal in an expression, not given to gettext, holds a phrase: two or more
  such words in a row (`"Votes so far"`). A single word in a literal is taken to be a key
  or a value compared (`"wolves"`, `"-nominate"`), not shown; so is a literal beside `==`
  or `!=` (`verdict == "not wolf"`).

HTML attributes a reader sees (`title`, `placeholder`, `alt`, `aria-label`) are template
text like any other."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment

GETTEXT_NAMES = frozenset({"_", "gettext", "ngettext", "pgettext", "npgettext"})
# A literal beside one of these is a value compared, not shown.
COMPARISONS = frozenset({"==", "!="})
# Stands for what Jinja owns or what is marked: not a letter, so no word runs across it.
MASK = "\u241f"
WORD = re.compile(r"^[^\W\d_]+(?:['’-][^\W\d_]+)*$")
CHUNK = re.compile(rf"[^\s{MASK}]+")
EDGE = re.compile(r"^[\W_]+|[\W_]+$")
SHOWN_ATTRIBUTE = re.compile(
    r"""\b(?:title|placeholder|alt|aria-label)\s*=\s*(["'])(.*?)\1""", re.S
)
HTML_TAG = re.compile(r"<[!/]?[A-Za-z][^<>]*>")
LAYOUT = (
    re.compile(r"<(script|style)\b.*?</\1\s*>", re.S | re.I),  # code, not prose
    re.compile(r"<!--.*?-->", re.S),
    HTML_TAG,
    re.compile(r"&#?\w+;"),  # an HTML entity
    re.compile(r"\[/?[a-z*]+(?:=[^\]\n]*)?\]"),  # a bbcode tag
    re.compile(r"^Subject:(?:\s*Re:)?", re.M),  # the mail's header line and a reply's prefix
    re.compile(
        r"^[ \t]*(?:BEGIN|END)\b.*$", re.M
    ),  # an order or message block's first and last line
    re.compile(
        r"\b[A-Z]n(?:-[a-z]+)*\b"
    ),  # a phase's id in the rules' notation: Dn-vote, Nn, Tn-movement
    re.compile(r"\bpbp\b"),  # the program's name, the same in every language
)
_ENV = Environment(extensions=["jinja2.ext.i18n"])


@dataclass(frozen=True)
class Prose:
    line: int
    text: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.text!r}"


def is_word(chunk: str) -> bool:
    bare = EDGE.sub("", chunk)
    return len(bare) >= 2 and bool(WORD.match(bare)) and not bare.isupper()


def unmarked(source: str) -> tuple[str, list[tuple[int, str]]]:
    """The template's own text, with everything Jinja owns or translates masked (line
    breaks kept, so lines still count), and the string literals not given to gettext."""
    text: list[str] = []
    literals: list[tuple[int, str]] = []
    in_trans = False
    tag: list[str] = []  # the names of the block being read
    calls: list[bool] = []  # for each open parenthesis: is it a gettext call's?
    previous = previous_kind = ""
    for line, kind, value in _ENV.lex(source):
        if kind == "data" and not in_trans:
            text.append(value)
            continue
        text.append(MASK + "\n" * value.count("\n"))
        if kind == "block_begin":
            tag = []
        elif kind == "name" and not calls:
            tag.append(value)
        elif kind == "block_end" and tag:
            in_trans = tag[0] == "trans" or (in_trans and tag[0] != "endtrans")
        if kind == "operator" and value == "(":
            calls.append(previous in GETTEXT_NAMES)
        elif kind == "operator" and value == ")" and calls:
            calls.pop()
        elif (
            kind == "string"
            and not (calls and calls[-1] and previous in ("(", ","))
            and previous not in COMPARISONS
        ):
            literals.append((line, value[1:-1]))
        if kind != "whitespace":
            if (
                value in COMPARISONS
                and previous_kind == "string"
                and literals
                and literals[-1][1] == previous[1:-1]
            ):
                literals.pop()  # compared, not shown: `"not wolf" == verdict`
            previous, previous_kind = value, kind
    return "".join(text), literals


def _tag_removed(tag: re.Match[str]) -> str:
    """An HTML tag gives way to the values of its attributes a reader sees."""
    shown = " ".join(value for _, value in SHOWN_ATTRIBUTE.findall(tag.group(0)))
    return MASK + shown + MASK + "\n" * (tag.group(0).count("\n") - shown.count("\n"))


def layout_removed(text: str) -> str:
    shown = text
    for pattern in LAYOUT:
        if pattern is HTML_TAG:
            shown = pattern.sub(_tag_removed, shown)
            continue
        shown = pattern.sub(lambda m: MASK + "\n" * m.group(0).count("\n"), shown)
    return shown


def prose_in(source: str) -> list[Prose]:
    """Every place `source` (a template) holds prose outside a translatable string."""
    text, literals = unmarked(source)
    found = []
    for number, line in enumerate(layout_removed(text).split("\n"), start=1):
        words = [chunk for chunk in CHUNK.findall(line) if is_word(chunk)]
        if words:
            found.append(Prose(number, " ".join(words)))
    for number, literal in literals:
        chunks = literal.split()
        if any(is_word(a) and is_word(b) for a, b in zip(chunks, chunks[1:])):
            found.append(Prose(number, literal))
    return sorted(found, key=lambda p: p.line)


def prose_in_file(path: Path) -> list[Prose]:
    return prose_in(path.read_text(encoding="utf-8"))
