"""Every event kind the Infiltration engine emits, with who receives it. Templates word each
one (templates/infiltration/events.j2); a test checks that none is missing. Kinds are
snake_case in both rulesets (docs/design.md: Engine contract)."""

PUBLIC_EVENT_KINDS = {
    "game_start": "turn 0 is over: the players and the NPCs",
    "alert": (
        "after each movement: whether Alert holds, its scope, and the floors under the floor scope"
    ),
    "votes": "every counted vote, the phantom voters and the tally",
    "lynch": "the lynch outcome: who was executed, or why nobody was",
    "deaths": "the characters found dead this turn, alphabetical (guards never)",
    "anonymous_message": "a message sent from a terminal, without its sender",
    "host_kill": "the host removed a character, with the reason",
    "result": "the winners, the victory path and the players who win",
}

PRIVATE_EVENT_KINDS = {
    "role": "after turn 0: your team, your class and your fellow Reds",
    "arrival": "where you are after a movement, what is there and how the move went",
    "red_occupancy": (
        "to every living Red when a movement opens: how many characters are in each occupied room"
    ),
    "combat": "to everyone in a room with fighting: the attacks, the dead and who killed them",
    "terminal": "one terminal use and its result",
    "tamper": "a HACK, DESTROY, RESTORE or REPAIR you carried out",
    "gassed": "gas flooded your room",
    "host_kill": "the host removed you, with the reason",
    "you_died": "you died: the turn, the room, the cause and who killed you in combat",
}

EVENT_KINDS = {**PUBLIC_EVENT_KINDS, **PRIVATE_EVENT_KINDS}
