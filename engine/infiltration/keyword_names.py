"""Infiltration's order keywords in German and Spanish (engine.keyword_names). Room names,
terminal words (`USE SEER`) and class names stay as the grammar writes them."""

from __future__ import annotations

from engine.keyword_names import keyword_names

KEYWORD_NAMES = keyword_names(
    {
        "de": {
            "CLASS": "KLASSE",
            "MOVE": "GEHEN",
            "STAY": "BLEIBEN",
            "CODE": "KODE",
            "USE": "BENUTZEN",
            "ATTACK": "ANGREIFEN",
            "HACK": "HACKEN",
            "DESTROY": "ZERSTOEREN",
            "RESTORE": "BEREINIGEN",
            "REPAIR": "REPARIEREN",
        },
        "es": {
            "CLASS": "CLASE",
            "MOVE": "MOVER",
            "STAY": "QUEDARSE",
            "CODE": "CODIGO",
            "USE": "USAR",
            "ATTACK": "ATACAR",
            "HACK": "HACKEAR",
            "DESTROY": "DESTRUIR",
            "RESTORE": "RESTAURAR",
            "REPAIR": "REPARAR",
        },
    }
)
