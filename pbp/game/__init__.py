"""A game's life in one home (docs/design.md: The map: where a mail goes): its stored
record and phase clock (`record`, `clock`), its start (`create`), the resolution of its
phases (`resolution`), the host's changes to its clock (`deadlines`), the notices every
player gets (`notices`), the moderator's own options (`options`), judging an order block
(`block_judge`), the bounces it records (`bounce_counts`), its running vote count
(`tally`) and its entry in the index of deadlines (`index_entry`). Nothing here names the
forum: it listens through the `Moderator`'s listener tuples, plugged in by the
composition roots."""
