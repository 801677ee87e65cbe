"""The words of the mail commands outside a game's order block in each language pbp writes
(docs/design.md: Languages — sign-up words): `MITSPIELEN ww3 Alice` is `JOIN ww3 Alice`,
`SALIR ww3` is `LEAVE ww3`, `ZUSEHEN ww3` is `WATCH ww3`, `DESOBSERVAR ww3` is `UNWATCH
ww3`, `SPRACHE de` is `LANGUAGE de`. Every language's words are
read from every sender, since a sender's language is known only after they sign up; the
catalogs' German and Spanish mail names these words (docs/glossary.md lists them)."""

from __future__ import annotations

COMMAND_NAMES: dict[str, dict[str, str]] = {
    "de": {
        "JOIN": "MITSPIELEN",
        "LEAVE": "AUSSTEIGEN",
        "WATCH": "ZUSEHEN",
        "UNWATCH": "WEGSEHEN",
        "LANGUAGE": "SPRACHE",
    },
    "es": {
        "JOIN": "UNIRSE",
        "LEAVE": "SALIR",
        "WATCH": "OBSERVAR",
        "UNWATCH": "DESOBSERVAR",
        "LANGUAGE": "IDIOMA",
    },
}
# {a name in any language: the English command word}
ENGLISH_COMMAND: dict[str, str] = {
    name: word for names in COMMAND_NAMES.values() for word, name in names.items()
}


def names_of(word: str) -> tuple[str, ...]:
    """`word` and its name in every language (`JOIN`, `MITSPIELEN`, `UNIRSE`)."""
    return (word, *(names[word] for names in COMMAND_NAMES.values() if word in names))
