"""Dates as each client writes them in its quote header, in its language (the shapes come
from the real messages listed in tests/clients/README.md)."""

from __future__ import annotations

from datetime import datetime

MONTHS = {
    "en": "January February March April May June July August September October November December",
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
}
SHORT_MONTHS = {
    "en": "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec",
    "fr": "janv. févr. mars avr. mai juin juil. août sept. oct. nov. déc.",
    "pt": "jan. fev. mar. abr. mai. jun. jul. ago. set. out. nov. dez.",
    "ru": "янв. февр. мар. апр. мая июн. июл. авг. сент. окт. нояб. дек.",
}
WEEKDAYS = {
    "en": "Monday Tuesday Wednesday Thursday Friday Saturday Sunday",
    "de": "Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag",
    "nl": "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag",
}
SHORT_WEEKDAYS = {
    "en": "Mon Tue Wed Thu Fri Sat Sun",
    "fr": "lun. mar. mer. jeu. ven. sam. dim.",
    "pt": "seg. ter. qua. qui. sex. sáb. dom.",
    "ru": "пн вт ср чт пт сб вс",
}


def _month(when: datetime, language: str, short: bool = False) -> str:
    return (SHORT_MONTHS if short else MONTHS)[language].split()[when.month - 1]


def _weekday(when: datetime, language: str, short: bool = False) -> str:
    return (SHORT_WEEKDAYS if short else WEEKDAYS)[language].split()[when.weekday()]


def _clock12(when: datetime) -> str:
    hour = when.hour % 12 or 12
    return f"{hour}:{when:%M} {'AM' if when.hour < 12 else 'PM'}"


def written(style: str, when: datetime) -> str:
    """`when` in one client's own style."""
    match style:
        case "gmail-en":  # Wed, Dec 2, 2026 at 4:27 AM
            return (
                f"{_weekday(when, 'en', True)}, {_month(when, 'en', True)} {when.day}, {when.year} "
                f"at {_clock12(when)}"
            )
        case "gmail-android-en":  # Dec 2, 2026 4:27 AM
            return f"{_month(when, 'en', True)} {when.day}, {when.year} {_clock12(when)}"
        case "gmail-fr":  # mer. 2 déc. 2026 à 04:27
            return f"{_weekday(when, 'fr', True)} {when.day} {_month(when, 'fr', True)} {when.year} à {when:%H:%M}"
        case "gmail-es":  # 02/12/2026 4:27
            return f"{when:%d/%m/%Y} {when.hour}:{when:%M}"
        case "gmail-pt":  # qua., 2 de dez. de 2026 às 04:27
            return (
                f"{_weekday(when, 'pt', True)}, {when.day} de {_month(when, 'pt', True)} de {when.year} "
                f"às {when:%H:%M}"
            )
        case "gmail-ru":  # ср, 2 дек. 2026 г. в 04:27
            return (
                f"{_weekday(when, 'ru', True)}, {when.day} {_month(when, 'ru', True)} {when.year} г. "
                f"в {when:%H:%M}"
            )
        case "outlook-en":  # Wednesday, December 2, 2026 4:27 AM
            return f"{_weekday(when, 'en')}, {_month(when, 'en')} {when.day}, {when.year} {_clock12(when)}"
        case "outlook-de":  # Mittwoch, 2. Dezember 2026 04:27
            return (
                f"{_weekday(when, 'de')}, {when.day}. {_month(when, 'de')} {when.year} {when:%H:%M}"
            )
        case "outlook-nl":  # woensdag 2 december 2026 04:27
            return (
                f"{_weekday(when, 'nl')} {when.day} {_month(when, 'nl')} {when.year} {when:%H:%M}"
            )
        case "outlook-ios":  # Wednesday, December 2, 2026 4:27:01 AM
            hour = when.hour % 12 or 12
            return (
                f"{_weekday(when, 'en')}, {_month(when, 'en')} {when.day}, {when.year} "
                f"{hour}:{when:%M:%S} {'AM' if when.hour < 12 else 'PM'}"
            )
        case "windows-mail":  # December 2, 2026 4:27 AM
            return f"{_month(when, 'en')} {when.day}, {when.year} {_clock12(when)}"
        case "apple-mac":  # 2 Dec 2026, at 04:27
            return f"{when.day} {_month(when, 'en', True)} {when.year}, at {when:%H:%M}"
        case "iphone-en":  # Dec 2, 2026, at 4:27 AM
            return f"{_month(when, 'en', True)} {when.day}, {when.year}, at {_clock12(when)}"
        case "iphone-ja":  # 2026/12/02 4:27
            return f"{when:%Y/%m/%d} {when.hour}:{when:%M}"
        case "thunderbird-en":  # 12/2/26 04:27
            return f"{when.month}/{when.day}/{when:%y} {when:%H:%M}"
        case "thunderbird-de":  # 02.12.26 um 04:27
            return f"{when:%d.%m.%y} um {when:%H:%M}"
        case "yahoo-en":  # Wednesday, December 2, 2026 at 04:27:01 AM UTC
            return (
                f"{_weekday(when, 'en')}, {_month(when, 'en')} {when.day}, {when.year} at "
                f"{when.hour % 12 or 12:02}:{when:%M:%S} {'AM' if when.hour < 12 else 'PM'} UTC"
            )
        case "gmx-de":  # Mittwoch, 02. Dezember 2026 um 04:27 Uhr
            return f"{_weekday(when, 'de')}, {when:%d}. {_month(when, 'de')} {when.year} um {when:%H:%M} Uhr"
    raise ValueError(f"no date style {style!r}")
