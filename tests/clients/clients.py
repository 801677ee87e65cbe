"""The mail clients of the corpus: what each one's reply looks like, taken from real
messages of that client (each profile names its sources, listed with their licences in
tests/clients/README.md).

A profile says how the client sends a reply: its identifying headers, MIME layout,
charsets and transfer encodings, how it wraps the text/plain part (hard at a column, or
format=flowed with or without DelSp), how it quotes (a prefix such as `> ` under an
attribution line in its language, or Outlook's unquoted header block), its HTML markup,
and the words a player of that language writes around the orders.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Client:
    key: str
    label: str  # the row of the outcome table
    language: str
    headers: tuple[tuple[str, str], ...]  # identifying headers (X-Mailer, User-Agent, …)
    message_id: str  # "{token}" is filled in per reply
    subject_prefix: str
    layout: str  # "plain", "alternative" (text/plain + text/html) or "html" (HTML only)
    plain_charset: str = "utf-8"
    plain_encoding: str = "quoted-printable"  # 7bit, 8bit, quoted-printable, base64
    html_charset: str = "utf-8"
    html_encoding: str = "quoted-printable"
    wrap: str = "none"  # "none", "hard" (at `width`) or "flowed"
    width: int = 76
    delsp: bool = False
    quote: str = "prefix"  # "prefix" (quote marks) or "header" (Outlook: unquoted history)
    quote_style: str = "> "  # "> " (`> > x`) or ">" (`>> x`)
    date_style: str = "gmail-en"
    attribution: str = ""  # "{date}", "{name}", "{address}" filled in
    attribution_quoted: bool = False  # Apple Mail puts "On … wrote:" inside the quote
    separator: str = ""  # Outlook: the line above its header block
    # Outlook's header block: (field, label) in the client's order and language
    header_labels: tuple[tuple[str, str], ...] = (("from", "From:"), ("sent", "Sent:"), ("to", "To:"),
                                                  ("subject", "Subject:"))
    html: str = ""  # the HTML markup family (tests/clients/html_shapes.py)
    typing_leaves_quote: bool = True  # a line typed inside the quote is not quoted (Gmail splits it)
    blank_around_typed: bool = False  # Gmail's text part sets lines typed into the quote apart
    mime_version: str = "1.0"
    greeting: tuple[str, ...] = ("Hi,", "", "my orders:")
    signature: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()


GERMAN = (("from", "Von:"), ("sent", "Gesendet:"), ("to", "An:"), ("subject", "Betreff:"))
OUTLOOK_DESKTOP = (("X-Mailer", "Microsoft Outlook 16.0"),
                   ("Thread-Index", "AQHbRb6zpkwLkl5wg02mvKz89xJFgA=="))

CLIENTS = {client.key: client for client in (
    Client("gmail-web", "Gmail web", "en", (), "<CAJ{token}@mail.gmail.com>", "Re: ", "alternative",
           plain_encoding="7bit", wrap="hard", date_style="gmail-en",
           attribution="On {date} {name} <{address}> wrote:", html="gmail", blank_around_typed=True,
           sources=("discourse-gmail-web", "talon-gmail", "quotequail-gmail")),
    Client("gmail-android", "Gmail Android", "en", (), "<CAK{token}@mail.gmail.com>", "Re: ", "alternative",
           plain_encoding="7bit", wrap="hard", date_style="gmail-android-en",
           attribution='On {date}, "{name}" <{address}> wrote:', html="gmail-android", blank_around_typed=True,
           greeting=("Here you go",), sources=("discourse-android-gmail", "talon-android")),
    Client("gmail-web-fr", "Gmail web (French)", "fr", (), "<CAF{token}@mail.gmail.com>", "Re: ", "alternative",
           wrap="hard", date_style="gmail-fr", attribution="Le {date}, {name} <{address}> a écrit :",
           html="gmail", blank_around_typed=True, greeting=("Bonjour,", "", "voici mes ordres :"),
           signature=("Amitiés,", "{player}"),
           sources=("crisp-fr-multiline", "willdurand-date-headers")),
    Client("gmail-web-es", "Gmail web (Spanish)", "es", (), "<CAE{token}@mail.gmail.com>", "Re: ", "alternative",
           wrap="hard", date_style="gmail-es", attribution="El {date}, {name} <{address}> escribió:",
           html="gmail", blank_around_typed=True, greeting=("Hola,", "", "aquí van mis órdenes:"),
           sources=("willdurand-date-headers",)),
    Client("gmail-web-pt", "Gmail web (Portuguese)", "pt", (), "<CAP{token}@mail.gmail.com>", "Re: ", "alternative",
           wrap="hard", date_style="gmail-pt", attribution="Em {date}, {name} <{address}> escreveu:",
           html="gmail", blank_around_typed=True, greeting=("Olá,", "", "seguem as minhas ordens:"),
           signature=("Abraço,",),
           sources=("quotequail-headers", "crisp-portuguese")),
    Client("gmail-android-ru", "Gmail Android (Russian)", "ru", (), "<CAR{token}@mail.gmail.com>", "Re: ",
           "alternative", plain_encoding="base64", html_encoding="base64", wrap="hard", date_style="gmail-ru",
           attribution="{date}, {name} <{address}>:", html="gmail-android", blank_around_typed=True,
           greeting=("Привет,", "", "мои приказы:"), sources=("crisp-russian", "talon-android")),
    Client("outlook-desktop", "Outlook desktop (HTML, Windows-1252)", "en", OUTLOOK_DESKTOP + (
           ("Content-Language", "en-us"),), "<000001db{token}$7c2e4a10$@players.test>", "RE: ", "alternative",
           plain_charset="windows-1252", html_charset="windows-1252", quote="header", date_style="outlook-en",
           html="outlook", greeting=("Hi,", "", "Orders below."), signature=("{player}",),
           sources=("talon-ms-outlook-2010", "talon-outlook", "quotequail-outlook", "lore-outlook-16")),
    Client("outlook-desktop-de", "Outlook desktop (German)", "de", OUTLOOK_DESKTOP + (
           ("Content-Language", "de-de"),), "<000101db{token}$1a2b3c40$@players.test>", "AW: ", "alternative",
           plain_charset="windows-1252", html_charset="windows-1252", quote="header", date_style="outlook-de",
           header_labels=GERMAN, html="outlook",
           greeting=("Hallo,", "", "hier meine Befehle:"), signature=("Viele Grüße", "{player}"),
           sources=("crisp-german-2", "talon-quotations-test")),
    Client("outlook-html-only-nl", "Outlook desktop HTML only (Dutch)", "nl", OUTLOOK_DESKTOP + (
           ("Content-Language", "nl-nl"),), "<000201db{token}$5d6e7f80$@players.test>", "RE: ", "html",
           html_charset="windows-1252", quote="header", date_style="outlook-nl",
           header_labels=(("from", "Van:"), ("sent", "Verzonden:"), ("to", "Aan:"), ("subject", "Onderwerp:")),
           html="outlook",
           greeting=("Hoi,", "", "mijn orders:"), signature=("Groeten,", "{player}"),
           sources=("talon-ms-outlook-2010", "talon-quotations-test", "discourse-dutch")),
    Client("outlook-plain", "Outlook desktop (plain text)", "en", OUTLOOK_DESKTOP,
           "<000301db{token}$9a8b7c60$@players.test>",
           "RE: ", "plain", plain_charset="windows-1252", wrap="hard", quote="header", date_style="outlook-en",
           separator="-----Original Message-----", greeting=("Orders:",), signature=("{player}",),
           sources=("talon-quotations-test", "lore-outlook-16")),
    Client("outlook-web", "Outlook web", "en", (("X-MS-Has-Attach", ""), ("Content-Language", "en-US")),
           "<DM5PR22MB{token}@DM5PR22MB0379.namprd22.prod.outlook.com>", "Re: ", "alternative",
           plain_charset="iso-8859-1", html_charset="iso-8859-1", quote="header", date_style="outlook-en",
           separator="________________________________", html="owa", signature=("{player}",),
           sources=("lore-outlook-web", "crisp-msn")),
    Client("outlook-ios-fr", "Outlook iOS (French)", "fr", (("X-Mailer", "Outlook for iOS and Android"),),
           "<BY5PR12MB{token}@BY5PR12MB4163.namprd12.prod.outlook.com>", "Re: ", "alternative",
           quote="header", date_style="outlook-ios", separator="________________________________", html="owa",
           greeting=("Voici mes ordres",), signature=("Envoyé à partir de Outlook pour iOS<https://aka.ms/o0ukef>",),
           sources=("crisp-ios-outlook-fr", "spamscope-outlook-ios")),
    Client("windows-mail", "Mail for Windows", "en", (), "<5fc7a2b1.{token}@mx.players.test>", "RE: ", "alternative",
           quote="header", date_style="windows-mail", html="outlook",
           greeting=("Orders",), signature=("Sent from Mail for Windows 10",), sources=("willdurand-w10-mail",)),
    Client("apple-mail", "Apple Mail (macOS, flowed)", "en", (("X-Mailer", "Apple Mail (2.2104)"),),
           "<68001B29-8EA4-444C-A894-{token}@players.test>", "Re: ", "plain", plain_charset="us-ascii",
           plain_encoding="7bit", wrap="flowed", delsp=True, date_style="apple-mac",
           attribution="On {date}, {name} <{address}> wrote:", attribution_quoted=True,
           mime_version="1.0 (Mac OS X Mail 8.2 \\(2104\\))", greeting=("Hello",),
           sources=("talon-apple-mail-2", "lore-apple-flowed")),
    Client("apple-mail-html", "Apple Mail (macOS, HTML)", "en", (("X-Mailer", "Apple Mail (2.3731)"),),
           "<91A8E699-D0F9-4114-9B46-{token}@players.test>", "Re: ", "alternative", plain_charset="us-ascii",
           date_style="apple-mac", attribution="On {date}, {name} <{address}> wrote:", attribution_quoted=True,
           html="apple", typing_leaves_quote=False, mime_version="1.0 (Mac OS X Mail 16.0 \\(3731\\))",
           greeting=("Hello",), sources=("fiedl-multipart", "quotequail-apple")),
    Client("iphone", "iPhone Mail", "en", (("X-Mailer", "iPhone Mail (20B101)"),),
           "<06C90B12-13B9-4C5F-A9EF-{token}@players.test>", "Re: ", "alternative", plain_charset="us-ascii",
           html_encoding="7bit", date_style="iphone-en", attribution="On {date}, {name} <{address}> wrote:",
           attribution_quoted=True, html="apple", typing_leaves_quote=False, mime_version="1.0 (1.0)",
           greeting=("Here", ""), signature=("Sent from my iPhone",),
           sources=("discourse-ios-default", "talon-iphone", "quotequail-ios")),
    Client("iphone-ja", "iPhone Mail (Japanese)", "ja", (("X-Mailer", "iPhone Mail (20B101)"),),
           "<4B3A0E5C-2D1F-4E8A-9C7B-{token}@players.test>", "Re: ", "alternative", plain_encoding="base64",
           html_encoding="base64", date_style="iphone-ja",
           attribution="{date}、{name} <{address}> のメッセージ:",
           attribution_quoted=True, html="apple", typing_leaves_quote=False, mime_version="1.0 (1.0)",
           greeting=("よろしくお願いします。", ""), signature=("iPhoneから送信",),
           sources=("willdurand-date-headers",)),
    Client("thunderbird", "Thunderbird (flowed)", "en", (
           ("User-Agent", "Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Thunderbird/115.5.0"),),
           "<4F79B73C.{token}@players.test>", "Re: ", "plain", plain_encoding="8bit", wrap="flowed", width=72,
           quote_style=">", date_style="thunderbird-en", attribution="On {date}, {name} wrote:",
           greeting=(), signature=("-- ", "{player}"), sources=("talon-thunderbird", "talon-html-thunderbird")),
    Client("thunderbird-de", "Thunderbird (German, flowed)", "de", (
           ("User-Agent", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:115.0) Gecko/20100101 Thunderbird/115.5.0"),
           ("Content-Language", "de-DE")), "<b7e1c2d4-{token}@players.test>", "AW: ", "plain",
           plain_encoding="8bit", wrap="flowed", width=72, quote_style=">", date_style="thunderbird-de",
           attribution="Am {date} schrieb {name}:", greeting=("Hallo,",), signature=("-- ", "Grüße, {player}"),
           sources=("willdurand-date-headers", "quotequail-headers")),
    Client("horde", "Horde IMP (flowed, DelSp)", "en", (("User-Agent", "Horde Application Framework 5"),),
           "<20261202124813.Horde.{token}@webmail.players.test>", "Re: ", "plain", plain_encoding="8bit",
           wrap="flowed", delsp=True, attribution="Quoting {name} <{address}>:", greeting=("Hi,",),
           sources=("horde-imp", "lore-horde")),
    Client("yahoo", "Yahoo Mail web", "en", (("X-Mailer", "WebService/1.1.21952 YMailNorrin"),),
           "<1333374330.{token}@mail.yahoo.com>", "Re: ", "alternative", quote="header",
           date_style="yahoo-en", attribution="On {date}, {name} <{address}> wrote:", html="yahoo",
           greeting=("Hello",), sources=("talon-yahoo", "quotequail-yahoo")),
    Client("gmx-de", "GMX / web.de (German, HTML only)", "de", (("Importance", "normal"), ("Sensitivity", "Normal"),
           ("X-UI-Message-Type", "mail")), "<trinity-8ce7e850-{token}@3capp-gmx-bs53>", "Aw: ", "html",
           html_encoding="7bit", quote="header", date_style="gmx-de",
           header_labels=(("sent", "Gesendet:"), ("from", "Von:"), ("to", "An:"), ("subject", "Betreff:")),
           html="gmx",
           greeting=("Hallo,",), signature=("Viele Grüße", "{player}"), sources=("fiedl-gmx",)),
)}
