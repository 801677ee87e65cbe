"""Werewolf's order keywords in German and Spanish (engine.keyword_names)."""

from __future__ import annotations

from engine.keyword_names import keyword_names

KEYWORD_NAMES = keyword_names(
    {
        "de": {
            "NOMINATE": "NOMINIEREN",
            "UNNOMINATE": "ENTNOMINIEREN",
            "KILL": "TOETEN",
            "SEE": "SEHEN",
            "PROTECT": "SCHUETZEN",
            "SILENCE": "KNEBELN",
            "STRIKE": "ZUSCHLAGEN",
            "ROUSE": "AUFWIEGELN",
            "LOVE": "LIEBEN",
            "SEDUCE": "VERFUEHREN",
            "VISIT": "BESUCHEN",
            "BITE": "BEISSEN",
            "SAVE": "RETTEN",
            "POISON": "VERGIFTEN",
        },
        "es": {
            "NOMINATE": "NOMINAR",
            "UNNOMINATE": "DESNOMINAR",
            "KILL": "MATAR",
            "SEE": "VER",
            "PROTECT": "PROTEGER",
            "SILENCE": "SILENCIAR",
            "STRIKE": "GOLPEAR",
            "ROUSE": "AGITAR",
            "LOVE": "AMAR",
            "SEDUCE": "SEDUCIR",
            "VISIT": "VISITAR",
            "BITE": "MORDER",
            "SAVE": "SALVAR",
            "POISON": "ENVENENAR",
        },
    }
)
