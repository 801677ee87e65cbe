"""pbp: the moderator shell around the pure engines (mail, storage, schedule, forum, CLI)."""
