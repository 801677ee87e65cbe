"""Sign-ups and spectators (docs/design.md: Sign-ups and spectators): open games
that collect players by mail, the `JOIN` / `LEAVE` / `WATCH` / `UNWATCH` commands with
their one-time confirmation codes, and the host's view of each resolution mailed to the
dead and to confirmed watchers."""
