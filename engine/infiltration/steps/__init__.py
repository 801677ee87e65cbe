"""The steps of Infiltration's turn, one module each, in the order `turn.py` runs them (rules:
Movement, Arrival, Alert, Guards; Resolution of a decision phase §1–§4): movement and the
guards' moves, arrival, the alert, the lynch, combat room by room, the terminals (the
information terminals and one terminals step in the making) and gas."""
