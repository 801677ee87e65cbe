"""Who in a game is told what, and when (docs/design.md: Mail only where it tells something,
Deadlines): the welcome mail, reminders before deadlines, the notices every player gets when
the host or the clock changes the game, who gets a report after a resolution, mail to
and from the host, and how many replies a sender gets a day (`reply_cap`)."""
