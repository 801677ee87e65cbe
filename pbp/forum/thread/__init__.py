"""Reading a game's public thread (docs/design.md: Public posts — the thread watch, votes in
the thread, activity): the posts as a forum gives them and who wrote each, the order lines
they hold and those written mid-line, the votes taken from them and the standing ones, who
may post and when, the watch that reads the thread on a rhythm, the running counts it
drafts, each player's activity, and what pbp mails and shows about what it read."""
