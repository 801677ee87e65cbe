"""The public thread (docs/design.md: Public posts): drafts made from templates fed only the
public view, the leak check, host review, and publishing to Reddit or to files."""
