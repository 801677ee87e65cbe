"""Judging one order block against its game (docs/design.md: Order mail format, The desk's
rules): the rules a block must pass before its lines are read, each a small function, the
order lines as the shell reads them before the engine parses them, and the count of wrong
tokens per sender that never locks the owner out."""
