"""Writing to a game's public thread (docs/design.md: Public posts): drafting each post from
templates fed only the public view, in the forum's dialect and language, with the facts a
good host puts under it; the leak check and where its findings lie; the host's review and
APPROVE by mail; and publishing approved drafts in order, once each, through a publisher
(files, Reddit or Discourse)."""
