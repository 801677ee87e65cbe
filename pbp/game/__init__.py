"""A game's life in one home (docs/design.md: The map: where a mail goes): its stored record and phase clock
(`record`, `clock`), its start (`create`), the resolution of its phases (`resolution`),
the host's changes to its clock (`deadlines`), the notices every player gets (`notices`) and
the moderator's own options (`options`). Nothing here names the forum: it listens through
the `Moderator`'s listener tuples, plugged in by the composition roots."""
