"""The HTML part of a reply, in each client family's own markup (taken from the real
messages in tests/clients/README.md): Gmail's gmail_quote blockquote, Apple's
blockquote type=cite, Outlook desktop's Word paragraphs under a bordered header block,
Outlook web's divRplyFwdMsg, Yahoo's yahoo_quoted div and GMX's div name="quote".
Text is escaped with the standard library's `html.escape`."""

from __future__ import annotations

import html
import re

from tests.clients.clients import Client
from tests.clients.composition import QuoteLine, Reply

GMAIL_QUOTE = "margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex"
WORD_HEAD = (
    '<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
    'xmlns:w="urn:schemas-microsoft-com:office:word" xmlns="http://www.w3.org/TR/REC-html40"><head>'
    '<meta http-equiv=Content-Type content="text/html; charset={charset}">'
    '<meta name=Generator content="Microsoft Word 15 (filtered medium)"><style><!--\n'
    "p.MsoNormal, li.MsoNormal, div.MsoNormal\n"
    '\t{{margin:0in;font-size:11.0pt;font-family:"Calibri",sans-serif;}}\n'
    "p.MsoPlainText\n"
    '\t{{mso-style-priority:99;margin:0in;font-size:11.0pt;font-family:"Calibri",sans-serif;}}\n'
    '--></style></head><body lang=EN-US link="#0563C1" vlink="#954F72"><div class=WordSection1>'
)


def escaped(text: str) -> str:
    """A line as an HTML editor keeps it: escaped, runs of spaces held by &nbsp;."""
    text = html.escape(text, quote=False)
    return re.sub(r"(?<= ) |^ ", "&nbsp;", text)


def html_part(reply: Reply, client: Client) -> str:
    return {
        "gmail": _gmail,
        "gmail-android": _gmail_android,
        "apple": _apple,
        "outlook": _outlook,
        "owa": _owa,
        "yahoo": _yahoo,
        "gmx": _gmx,
    }[client.html](reply, client)


def _blockquoted(
    quote: list[QuoteLine], client: Client, opening: str, line: str, empty: str
) -> str:
    """The quote as nested blockquotes (a line of depth d in the quoted mail sits d+1 deep),
    each line in `line` markup; a typed line leaves the quote where the client splits it."""
    parts, depth = [], 0
    for q in quote:
        target = 0 if q.typed and client.typing_leaves_quote else q.depth + 1
        while depth < target:
            parts.append(opening)
            depth += 1
        while depth > target:
            parts.append("</blockquote>")
            depth -= 1
        if depth == 0:
            parts.append(f"<div>{escaped(q.text) or '<br>'}</div>")
        else:
            parts.append(line.format(escaped(q.text)) if q.text else empty)
    parts.extend("</blockquote>" for _ in range(depth))
    return "\n".join(parts)


def _divs(lines: list[str], attributes: str = "") -> str:
    return "".join(f"<div{attributes}>{escaped(text) or '<br>'}</div>" for text in lines)


def _gmail(reply: Reply, client: Client) -> str:
    opening = f'<blockquote class="gmail_quote" style="{GMAIL_QUOTE}">'
    quote = _blockquoted(reply.quote, client, opening, "{}<br>", "<br>")
    return (
        f'<div dir="ltr">{_divs(reply.above)}</div><br><div class="gmail_quote"><div dir="ltr" '
        f'class="gmail_attr">{escaped(reply.attribution)}<br></div>{quote}</div>'
        f"{_divs(reply.below)}\n"
    )


def _gmail_android(reply: Reply, client: Client) -> str:
    opening = '<blockquote class="gmail_quote" style="margin:0 0 0 .8ex;border-left:1px #ccc solid;padding-left:1ex">'
    quote = _blockquoted(reply.quote, client, opening, "{}<br>", "<br>")
    above = "".join(f'<p dir="ltr">{escaped(text)}</p>' for text in reply.above if text)
    below = "".join(f'<p dir="ltr">{escaped(text)}</p>' for text in reply.below if text)
    return (
        f'{above}\n<div class="gmail_quote">{escaped(reply.attribution)}<br type="attribution">'
        f"{quote}</div>{below}\n"
    )


def _apple(reply: Reply, client: Client) -> str:
    quote = _blockquoted(
        reply.quote,
        client,
        '<blockquote type="cite">',
        '<div dir="ltr">{}</div>',
        '<div dir="ltr"><br></div>',
    )
    quote = quote.replace(
        '<blockquote type="cite">',
        '<blockquote type="cite"><div dir="ltr">'
        f'{escaped(reply.attribution)}</div><br class="Apple-interchange-newline">',
        1,
    )
    return (
        '<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
        f'<body dir="auto">{_divs(reply.above, " dir=ltr")}<div dir="ltr"><br></div>{quote}'
        f"{_divs(reply.below, ' dir=ltr')}</body></html>\n"
    )


def _header_lines(reply: Reply, separator: str = "<br>\n") -> str:
    return separator.join(
        f"<b>{escaped(label)}</b> {escaped(value)}" for label, value in reply.header
    )


def _outlook(reply: Reply, client: Client) -> str:
    def paragraph(text: str, kind: str = "MsoNormal") -> str:
        return f"<p class={kind}>{escaped(text) or '<o:p>&nbsp;</o:p>'}<o:p></o:p></p>\n"

    body = "".join(paragraph(text) for text in reply.above) + paragraph("")
    body += (
        "<div><div style='border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in'>"
        f"<p class=MsoNormal>{_header_lines(reply)}<o:p></o:p></p></div></div>\n" + paragraph("")
    )
    body += "".join(paragraph(("> " * q.depth) + q.text, "MsoPlainText") for q in reply.quote)
    body += "".join(paragraph(text) for text in reply.below)
    return WORD_HEAD.format(charset=client.html_charset) + body + "</div></body></html>\n"


def _owa(reply: Reply, client: Client) -> str:
    style = (
        "font-family: Calibri, Arial, Helvetica, sans-serif; font-size: 12pt; color: rgb(0, 0, 0);"
    )
    own = "".join(
        f'<div style="{style}">\n{escaped(text) or "<br>"}</div>\n' for text in reply.above
    )
    quote = "<br>\n".join(escaped(("> " * q.depth) + q.text) for q in reply.quote)
    return (
        f'<html><head><meta http-equiv="Content-Type" content="text/html; charset={client.html_charset}">'
        '<style type="text/css" style="display:none;"> P {margin-top:0;margin-bottom:0;} </style></head>'
        f'<body dir="ltr">{own}<div id="appendonsend"></div>'
        '<hr style="display:inline-block;width:98%" tabindex="-1">'
        '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" '
        f'color="#000000">{_header_lines(reply)}</font><div>&nbsp;</div></div>'
        '<div class="BodyFragment"><font size="2"><span style="font-size:11pt;"><div class="PlainText">'
        f"{quote}<br>\n</div></span></font></div>{_divs(reply.below)}</body></html>\n"
    )


def _yahoo(reply: Reply, client: Client) -> str:
    quote = "<br>".join(escaped(("> " * q.depth) + q.text) for q in reply.quote)
    own = "".join(
        f'<div dir="ltr" data-setdir="false">{escaped(text) or "<br>"}</div>'
        for text in reply.above
    )
    return (
        '<html><head></head><body><div class="ydp9b1f0a55yahoo-style-wrap" style="font-family:Helvetica '
        f'Neue, Helvetica, Arial, sans-serif;font-size:16px;">{own}</div>'
        '<div id="ydp9b1f0a55yahoo_quoted_5894033310" class="ydp9b1f0a55yahoo_quoted">'
        "<div style=\"font-family:'Helvetica Neue', Helvetica, Arial, sans-serif;font-size:13px;color:#26282a;\">"
        f"<div>{escaped(reply.attribution)}</div><div><br></div><div><br></div>"
        f'<div><div dir="ltr">{quote}</div></div></div></div></body></html>\n'
    )


def _gmx(reply: Reply, client: Client) -> str:
    own = "".join(f"<div>{escaped(text) or '&nbsp;'}</div>\n\n" for text in reply.above)
    header = _header_lines(reply, "<br/>\n").replace("</b> ", "</b>&nbsp;")
    quote = "<br/>\n".join(escaped(("> " * q.depth) + q.text) for q in reply.quote)
    return (
        '<html><head></head><body><div style="font-family: Verdana;font-size: 12.0px;">'
        f'{own}<div>&nbsp;\n<div name="quote" style="margin:10px 5px 5px 10px; padding: 10px 0 10px 10px; '
        "border-left:2px solid #C3D9E5; word-wrap: break-word; -webkit-nbsp-mode: space; "
        f'-webkit-line-break: after-white-space;">\n<div style="margin:0 0 10px 0;">{header}</div>\n\n'
        f'<div name="quoted-content">{quote}</div>\n</div>\n</div>{_divs(reply.below)}</div></body></html>\n'
    )
