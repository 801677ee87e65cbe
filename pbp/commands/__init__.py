"""One module per `pbp` sub-command; each has `register(subparsers)` (see pbp.cli)."""
