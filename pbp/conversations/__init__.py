"""Conversations by mail (docs/design.md: Conversations): message blocks relayed to team
channels and to the host, kept in the game's log.

- `channels`: who belongs to which channel now (the engine decides; this only asks it).
- `judge`: one message block judged against its sender and channel.
- `relay`: an accepted message stored and queued, one outbox row per recipient.
- `picks`: a team's current picks of the orders it settles together (the pack's KILLs).
- `host_side`: the host's answers and an NPC's messages (by mail or command line).
- `log`: a channel's messages as the host reads them.
"""
