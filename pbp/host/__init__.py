"""The host's operations around the mail loop: orders overview, extend, pause and
resume, substitute, submit, modkill, replay. The command modules in `pbp/commands/` are
thin: they parse arguments and call these."""
