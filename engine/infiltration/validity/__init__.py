"""The Validity check terminal (rules: Resolution §3, "Validity check grammar"): its
statements, their words and tokens, what a statement is and how it is judged, and the game
as a check may ask of it."""
