"""Every event kind the Werewolf engine emits, with who receives it. Templates word each
one (templates/werewolf/events.j2); a test checks that none is missing."""

PUBLIC_EVENT_KINDS = {
    "dawn": "day n begins; the night's deaths by name (roles if revealed)",
    "nominations": "who nominated whom, who did not, and the tally (round: nominate or runoff)",
    "no_nominations": "nobody was nominated: no trial, night falls",
    "runoff": "places won outright and the players tied for the remaining place(s)",
    "runoff_draw": "a second tie settled by a seeded draw",
    "trial": "the defendants",
    "rabble_roused": "the rabble was roused: both defendants are lynched without a vote",
    "votes": "who voted for whom, who did not, and the tally",
    "lynch": "a player is lynched",
    "no_lynch": "the vote lynched nobody",
    "also_died": "a player died with another (a lover's broken heart)",
    "night_falls": "night n begins",
    "host_kill": "the host removed a player, with the reason",
    "game_over": "the winners, the victory path and every role",
}

PRIVATE_EVENT_KINDS = {
    "lovers": "you and your lover know each other",
    "witch_told": "the Witch hears the wolves' chosen target, or none",
    "vision": "the Seer's verdict on a player",
    "vision_failed": "the Seer's target died in the night before she could look",
    "apothecary_report": "of each of the day's lynch victims: wolf, not wolf or third faction",
    "pack_kills": (
        "every wolf of the pack: the pack's KILLs tonight, whether they agreed, and whom they"
        " killed"
    ),
    "beyond_reach": "your faction's target was claimed earlier in the night by another faction",
    "visited": "someone visited you in the night",
    "silenced": "you are silenced for the coming day",
    "seduced": "you were seduced and are now a Villager",
    "seduction_wasted": "the Succubus seduced a Villager; her power is not spent",
    "new_role": "your role changed",
    "faction_changed": "your faction changed (a hybrid)",
    "team": "you joined a team and learn its members",
    "newcomer": "someone joined your team",
}

EVENT_KINDS = {**PUBLIC_EVENT_KINDS, **PRIVATE_EVENT_KINDS}
